import { expect } from 'chai';
import type { ChainhookV1Payload } from '../../../core/chainhook-v1/v1-payload.js';
import { startTestServer, untilIngested, type TestServer } from '../../support/api-server.js';
import { ChainBuilder, TEST_KEYS, addressOf, stxTransfer } from '../../support/block-builder.js';
import { startTestReceiver, type TestReceiver } from '../../support/test-receiver.js';

describe('a Chainhook 1.x predicate through the live stream and delivery', function () {
  this.timeout(60_000);
  let t: TestServer;
  let receiver: TestReceiver;

  beforeEach(async () => {
    t = await startTestServer({ STACKHOOKS_V1_PORT: '0' });
    receiver = await startTestReceiver();
  });
  afterEach(async () => {
    await t.stop();
    await receiver.close();
  });

  async function register(scope: object): Promise<void> {
    const response = await fetch(`http://127.0.0.1:${t.server.v1Port}/v1/chainhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        uuid: 'v1-transfers',
        name: 'transfers',
        version: 1,
        chain: 'stacks',
        networks: {
          mainnet: {
            if_this: scope,
            then_that: { http_post: { url: receiver.url('/payload'), authorization_header: 'Bearer abc' } },
          },
        },
      }),
    });
    expect(response.status).to.equal(200);
  }

  async function post(block: unknown): Promise<void> {
    const response = await fetch(`${t.observerUrl}/new_block`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(block),
    });
    expect(response.status).to.equal(200);
  }

  it('posts 1.x payloads with the authorization header, the matched transaction and its typed events, then a rollback', async () => {
    await register({ scope: 'stx_event', actions: ['transfer'] });
    const chain = new ChainBuilder();
    const b0 = chain.next();
    const transfer = await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: 5n });
    const b1 = chain.next({ transactions: [transfer] });
    await post(b0);
    await post(b1);
    await untilIngested(t);
    await receiver.waitFor(1);
    const [first] = receiver.received;
    expect(first!.headers.authorization).to.equal('Bearer abc');
    const payload = JSON.parse(first!.body) as ChainhookV1Payload;
    expect(payload.chainhook).to.deep.equal({
      uuid: 'v1-transfers',
      predicate: { scope: 'stx_event', actions: ['transfer'] },
      is_streaming_blocks: true,
    });
    expect(payload.rollback).to.deep.equal([]);
    expect(payload.events).to.deep.equal([]);
    expect(payload.apply.map((b) => b.block_identifier.index)).to.deep.equal([b1.block_height]);
    const [tx] = payload.apply[0]!.transactions;
    expect(tx!.transaction_identifier.hash).to.equal(transfer.transaction.txid);
    expect(tx!.metadata.kind).to.deep.equal({ type: 'NativeTokenTransfer' });
    expect(tx!.metadata.success).to.equal(true);
    expect(tx!.metadata.receipt.events).to.deep.equal([
      {
        type: 'STXTransferEvent',
        position: { index: 0 },
        data: { amount: '5', sender: addressOf(TEST_KEYS.alice), recipient: addressOf(TEST_KEYS.bob) },
      },
    ]);

    // A longer branch from b0 takes b1 off the chain: its payload comes back as a rollback.
    const fork = chain.forkFrom(b0.index_block_hash);
    await post(fork.next());
    await post(fork.next());
    await untilIngested(t);
    await receiver.waitFor(2);
    const second = JSON.parse(receiver.received[1]!.body) as ChainhookV1Payload;
    expect(second.apply).to.deep.equal([]);
    expect(second.rollback.map((b) => b.block_identifier.hash)).to.deep.equal([b1.index_block_hash]);
  });

  it('lists the predicate as streaming once blocks were evaluated, with its trigger count', async () => {
    await register({ scope: 'block_height', higher_than: 0 });
    const chain = new ChainBuilder();
    await post(chain.next());
    await post(chain.next());
    await untilIngested(t);
    await receiver.waitFor(1);
    const response = await fetch(`http://127.0.0.1:${t.server.v1Port}/v1/chainhooks/v1-transfers`);
    const { result } = (await response.json()) as {
      result: { status: { type: string; info: Record<string, unknown> } };
    };
    expect(result.status.type).to.equal('streaming');
    expect(result.status.info.number_of_blocks_evaluated).to.equal(2);
  });
});
