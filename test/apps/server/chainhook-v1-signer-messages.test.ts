import { expect } from 'chai';
import type { SignerMessageEvent } from '../../../core/chainhook-v1/signer-messages.js';
import type { ChainhookV1Payload } from '../../../core/chainhook-v1/v1-payload.js';
import { DELIVERY_QUEUE, type DeliveryQueue } from '../../../core/ports/delivery-queue.js';
import { SignerMessageDelivery } from '../../../core/use-cases/signer-message-delivery.js';
import { readStackerDbPost } from '../../../core/stacks-codec/signer-message/stackerdb-chunks.js';
import { startTestServer, untilIngested, type TestServer } from '../../support/api-server.js';
import { ChainBuilder, TEST_KEYS } from '../../support/block-builder.js';
import { fixturesDir, readReplayTsv } from '../../support/fixtures.js';
import {
  blockAccepted,
  filled,
  publicKeyOf,
  signedSlot,
  stackerDbPost,
} from '../../support/signer-message-builder.js';
import { TEST_DATABASE_URL, dropSchema, freshSchemaUrl, postgresAvailable } from '../../support/postgres.js';
import { startTestReceiver, type TestReceiver } from '../../support/test-receiver.js';
import { skipBecause } from '../../support/skip-because.js';

const withPostgres = await postgresAvailable();

for (const store of ['the embedded store', 'PostgreSQL']) {
  describe(`signer_message predicates through the observer and delivery, on ${store}`, function () {
    this.timeout(60_000);
    if (store === 'PostgreSQL' && !withPostgres) {
      it(`needs PostgreSQL at ${TEST_DATABASE_URL}, which does not answer`);
      return;
    }
    let t: TestServer;
    let receiver: TestReceiver;
    let databaseUrl: string | undefined;

    beforeEach(async () => {
      databaseUrl = store === 'PostgreSQL' ? freshSchemaUrl('signers') : undefined;
      t = await startTestServer({
        STACKHOOKS_V1_PORT: '0',
        ...(databaseUrl && { STACKHOOKS_DATABASE_URL: databaseUrl }),
      });
      receiver = await startTestReceiver();
    });
    afterEach(async () => {
      await t.stop();
      await receiver.close();
      if (databaseUrl) await dropSchema(databaseUrl);
    });

    async function register(uuid: string, scope: object): Promise<void> {
      const response = await fetch(`http://127.0.0.1:${t.server.v1Port}/v1/chainhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          uuid,
          name: uuid,
          version: 1,
          chain: 'stacks',
          networks: {
            mainnet: {
              if_this: scope,
              then_that: { http_post: { url: receiver.url(`/${uuid}`), authorization_header: 'Bearer s' } },
            },
          },
        }),
      });
      expect(response.status).to.equal(200);
    }

    async function post(path: string, body: unknown): Promise<void> {
      const { eventLog } = t.server.stackhooks;
      const before = eventLog.lastId();
      const response = await fetch(`${t.observerUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status).to.equal(200);
      // The observer's thread answers once the entry is stored; this thread hears of it a moment
      // later, and `untilIngested` waits only for the entries heard of.
      while (eventLog.lastId() <= before) await new Promise((resolve) => setTimeout(resolve, 5));
    }

    const payloadsTo = (uuid: string) =>
      receiver.received
        .filter((r) => r.path === `/${uuid}`)
        .map((r) => JSON.parse(r.body) as ChainhookV1Payload);

    it("delivers a post's messages in one payload to each matching predicate, with the signer's key and the tip", async () => {
      await register('all', { scope: 'signer_message', after_timestamp: 1 });
      await register('alice', { scope: 'signer_message', signer_pubkey: publicKeyOf(TEST_KEYS.alice) });
      await register('carol', { scope: 'signer_message', signer_pubkey: publicKeyOf(TEST_KEYS.carol) });
      const tip = new ChainBuilder().next();
      await post('/new_block', tip);
      // A post whose chunk does not decode is skipped: the next one is still delivered.
      await post(
        '/stackerdb_chunks',
        stackerDbPost('signers-0-1', [{ sig: '00', data: '01ff', slot_id: 0, slot_version: 1 }]),
      );
      const before = Date.now();
      await post(
        '/stackerdb_chunks',
        stackerDbPost('signers-0-1', [
          signedSlot(blockAccepted(filled(32, 1), filled(65, 1), 'signer a'), TEST_KEYS.alice, 0, 4),
          signedSlot(blockAccepted(filled(32, 1), filled(65, 2), 'signer b'), TEST_KEYS.bob, 1, 9),
        ]),
      );
      await untilIngested(t);
      await receiver.waitFor(2);

      const [all] = payloadsTo('all');
      expect(all!.apply).to.deep.equal([]);
      expect(all!.rollback).to.deep.equal([]);
      expect(all!.chainhook).to.deep.equal({
        uuid: 'all',
        predicate: { scope: 'signer_message', after_timestamp: 1 },
        is_streaming_blocks: true,
      });
      const events = all!.events as SignerMessageEvent[];
      expect(events.map((e) => [e.payload.data.pubkey, e.payload.data.contract])).to.deep.equal([
        [publicKeyOf(TEST_KEYS.alice), 'signers-0-1'],
        [publicKeyOf(TEST_KEYS.bob), 'signers-0-1'],
      ]);
      expect(events[0]!.received_at_block).to.deep.equal({
        index: tip.block_height,
        hash: tip.index_block_hash,
      });
      expect(events[0]!.received_at_ms).to.be.at.least(before);

      const alice = payloadsTo('alice');
      expect(
        alice.map((p) => (p.events as SignerMessageEvent[]).map((e) => e.payload.data.pubkey)),
      ).to.deep.equal([[publicKeyOf(TEST_KEYS.alice)]]);
      expect(receiver.received.find((r) => r.path === '/alice')!.headers.authorization).to.equal('Bearer s');
      // Both payloads were queued in one step: a payload for carol would be in its log by now.
      const queue = t.server.stackhooks.container.get<DeliveryQueue>(DELIVERY_QUEUE);
      expect((await queue.list('carol', { offset: 0, limit: 10 })).total).to.equal(0);
      const metrics = await t.server.stackhooks.metrics.exposition();
      expect(metrics).to.include('stackhooks_signer_messages_total{outcome="decoded"} 2');
      expect(metrics).to.include('stackhooks_signer_messages_total{outcome="malformed"} 1');
      expect(metrics).to.include('stackhooks_signer_message_payloads_total 2');
    });

    it('queues nothing twice when a post is processed again, as after a crash before its mark', async () => {
      await register('all', { scope: 'signer_message', after_timestamp: 1 });
      await post('/new_block', new ChainBuilder().next());
      const slot = signedSlot(blockAccepted(filled(32, 1), filled(65, 1), 'v'), TEST_KEYS.alice);
      await post('/stackerdb_chunks', stackerDbPost('signers-0-1', [slot]));
      await untilIngested(t);
      const { eventLog, container } = t.server.stackhooks;
      const [entry] = (await eventLog.readAfter(0, 10)).filter((e) => e.path === '/stackerdb_chunks');
      await container.get(SignerMessageDelivery).received(entry!);
      const queue = container.get<DeliveryQueue>(DELIVERY_QUEUE);
      expect((await queue.list('all', { offset: 0, limit: 10 })).total).to.equal(1);
    });

    it('delivers no message received before the first block, and counts it', async () => {
      await register('all', { scope: 'signer_message', after_timestamp: 1 });
      const slot = signedSlot(blockAccepted(filled(32, 1), filled(65, 1), 'v'), TEST_KEYS.alice);
      await post('/stackerdb_chunks', stackerDbPost('signers-0-1', [slot]));
      await untilIngested(t);
      expect(t.server.stackhooks.container.get(SignerMessageDelivery).counts()).to.include({
        beforeFirstBlock: 1,
        payloads: 0,
      });
    });

    it('reads no StackerDB post while no predicate takes signer messages', async () => {
      await register('blocks', { scope: 'block_height', higher_than: 0 });
      await post('/new_block', new ChainBuilder().next());
      await post(
        '/stackerdb_chunks',
        stackerDbPost('miners', [
          signedSlot(blockAccepted(filled(32, 1), filled(65, 1), 'v'), TEST_KEYS.alice),
        ]),
      );
      await untilIngested(t);
      expect(t.server.stackhooks.container.get(SignerMessageDelivery).counts()).to.include({
        unread: 1,
        decoded: 0,
      });
    });

    it('delivers the recorded StackerDB posts of a node with the messages they hold', async function () {
      if (!fixturesDir())
        skipBecause(this, 'the recorded fixtures are not beside the project (../shared/fixtures)');
      await register('all', { scope: 'signer_message', after_timestamp: 1 });
      await post('/new_block', new ChainBuilder().next());
      const posts: unknown[] = [];
      for await (const request of readReplayTsv('signer-metrics-api/stackerdb-sample-events.tsv.gz')) {
        if (request.path !== '/stackerdb_chunks') continue;
        posts.push(request.body);
        if (posts.length === 5) break;
      }
      for (const body of posts) await post('/stackerdb_chunks', body);
      await untilIngested(t);
      await receiver.waitFor(5);
      const delivered = payloadsTo('all').map((p) =>
        (p.events as SignerMessageEvent[]).map((e) => e.payload.data),
      );
      expect(delivered).to.deep.equal(posts.map((body) => readStackerDbPost(body).chunks));
    });
  });
}
