import { expect } from 'chai';
import type { ChainhookV1Payload } from '../../../core/chainhook-v1/v1-payload.js';
import { DELIVERY_QUEUE, type DeliveryQueue } from '../../../core/ports/delivery-queue.js';
import { startTestServer, untilIngested, type TestServer } from '../../support/api-server.js';
import { ChainBuilder, TEST_KEYS, addressOf, stxTransfer } from '../../support/block-builder.js';
import { TEST_DATABASE_URL, dropSchema, freshSchemaUrl, postgresAvailable } from '../../support/postgres.js';
import { startTestReceiver, type TestReceiver } from '../../support/test-receiver.js';

type Status = { type: string; info: Record<string, unknown> };

const withPostgres = await postgresAvailable();

for (const store of ['the embedded store', 'PostgreSQL']) {
  describe(`a Chainhook 1.x predicate with start_block and end_block over an archive on ${store}`, function () {
    this.timeout(60_000);
    if (store === 'PostgreSQL' && !withPostgres) {
      it(`needs PostgreSQL at ${TEST_DATABASE_URL}, which does not answer`);
      return;
    }
    let schema: string | undefined;
    let t: TestServer;
    let receiver: TestReceiver;
    let chain: ChainBuilder;
    /** Heights of the blocks posted so far, the transfer blocks among them. */
    let transferHeights: number[];

    beforeEach(async () => {
      schema = store === 'PostgreSQL' ? freshSchemaUrl('v1range') : undefined;
      t = await startTestServer({
        STACKHOOKS_V1_PORT: '0',
        ...(schema && { STACKHOOKS_DATABASE_URL: schema }),
      });
      receiver = await startTestReceiver();
      chain = new ChainBuilder();
      transferHeights = [];
      // Six blocks, a transfer in every other one, in the archive before any predicate exists.
      for (let i = 0; i < 6; i++) await postNext(i % 2 === 1);
      await untilIngested(t);
    });
    afterEach(async () => {
      await t.stop();
      await receiver.close();
      if (schema) await dropSchema(schema);
    });

    async function postNext(withTransfer: boolean): Promise<number> {
      const transactions = withTransfer
        ? [await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: 1n })]
        : [];
      const block = chain.next({ transactions });
      const response = await fetch(`${t.observerUrl}/new_block`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(block),
      });
      expect(response.status).to.equal(200);
      if (withTransfer) transferHeights.push(block.block_height);
      return block.block_height;
    }

    const tip = () => chain.head!.block_height;

    async function register(range: { start_block?: number; end_block?: number }): Promise<void> {
      const response = await fetch(`http://127.0.0.1:${t.server.v1Port}/v1/chainhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          uuid: 'ranged',
          name: 'ranged',
          version: 1,
          chain: 'stacks',
          networks: {
            mainnet: {
              if_this: { scope: 'stx_event', actions: ['transfer'] },
              then_that: { http_post: { url: receiver.url('/payload'), authorization_header: 'Bearer r' } },
              ...range,
            },
          },
        }),
      });
      expect(response.status).to.equal(200);
    }

    async function status(): Promise<Status> {
      const response = await fetch(`http://127.0.0.1:${t.server.v1Port}/v1/chainhooks/ranged`);
      return ((await response.json()) as { result: { status: Status } }).result.status;
    }

    async function statusBecomes(type: string): Promise<Status> {
      for (;;) {
        const current = await status();
        if (current.type === type) return current;
        await new Promise((r) => setTimeout(r, 20));
      }
    }

    const payloads = () => receiver.received.map((r) => JSON.parse(r.body) as ChainhookV1Payload);
    const heightsOf = (list: ChainhookV1Payload[]) => list.map((p) => p.apply[0]!.block_identifier.index);

    it('sends the history from start_block in height order while scanning, then streams live blocks', async () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      receiver.reply((_, index) => (index === 0 ? { status: 200, after: held } : { status: 200 }));
      const start = transferHeights[1]! - 1;
      await register({ start_block: start });
      const history = transferHeights.filter((h) => h >= start);

      await receiver.waitFor(1);
      const scanning = await status();
      expect(scanning.type).to.equal('scanning');
      expect(scanning.info.number_of_blocks_to_scan).to.equal(tip() - start + 1);
      release();

      await receiver.waitFor(history.length);
      const streaming = await statusBecomes('streaming');
      expect(streaming.info.number_of_times_triggered).to.equal(history.length);
      expect(heightsOf(payloads())).to.deep.equal(history);
      expect(payloads().every((p) => !p.chainhook.is_streaming_blocks)).to.equal(true);

      const live = await postNext(true);
      await untilIngested(t);
      await receiver.waitFor(history.length + 1);
      const last = payloads().at(-1)!;
      expect(heightsOf([last])).to.deep.equal([live]);
      expect(last.chainhook.is_streaming_blocks).to.equal(true);
      expect(receiver.received.length).to.equal(history.length + 1);
    });

    it('ends at an end_block below the tip: its history up to end_block, then expired, no live block sent', async () => {
      const start = transferHeights[0]!;
      const end = transferHeights[1]!;
      await register({ start_block: start, end_block: end });

      await receiver.waitFor(2);
      const ended = await statusBecomes('unconfirmed_expiration');
      expect(ended.info.expired_at_block_height).to.equal(end);
      expect(ended.info.number_of_times_triggered).to.equal(2);
      expect(heightsOf(payloads())).to.deep.equal([start, end]);

      await postNext(true);
      await untilIngested(t);
      // The live step queues its payloads before it is done: one for this hook would be logged by now.
      const queue = t.server.stackhooks.container.get<DeliveryQueue>(DELIVERY_QUEUE);
      expect((await queue.list('ranged', { offset: 0, limit: 10 })).total).to.equal(2);
    });

    it('streams up to an end_block ahead of the tip and sends nothing above it', async () => {
      const start = transferHeights.at(-1)!;
      await register({ start_block: start, end_block: tip() + 1 });
      await receiver.waitFor(1);
      await statusBecomes('streaming');

      const atEnd = await postNext(true);
      await untilIngested(t);
      await receiver.waitFor(2);
      await postNext(true);
      await untilIngested(t);
      expect((await status()).type).to.equal('unconfirmed_expiration');
      const queue = t.server.stackhooks.container.get<DeliveryQueue>(DELIVERY_QUEUE);
      expect((await queue.list('ranged', { offset: 0, limit: 10 })).total).to.equal(2);
      expect(heightsOf(payloads())).to.deep.equal([start, atEnd]);
      expect(payloads()[1]!.chainhook.is_streaming_blocks).to.equal(true);
    });
  });
}
