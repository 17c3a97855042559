import { expect } from 'chai';
import { startTestServer, TEST_API_KEY, type TestServer } from '../../support/api-server.js';
import { send } from '../../support/raw-http.js';
import {
  deliveries,
  postBlock,
  registerTransferHook,
  transferBlocks,
  until,
} from '../../support/delivery-server.js';
import { startTestReceiver, type TestReceiver } from '../../support/test-receiver.js';

type Record = { id: string; state: string; attempts: unknown[]; next_attempt_at: number | null };

describe('redelivering a payload that is still pending', function () {
  this.timeout(60_000);
  let t: TestServer;
  let receiver: TestReceiver;
  beforeEach(async () => {
    receiver = await startTestReceiver();
    // After a first failure the next attempt is ten minutes away.
    t = await startTestServer({ STACKHOOKS_RETRY_SCHEDULE: '0,10m' });
  });
  afterEach(async () => {
    await t.stop();
    await receiver.close();
  });

  it('sends it now rather than at its scheduled retry, after the payloads ahead of it', async () => {
    const uuid = await registerTransferHook(t, receiver.url());
    receiver.reply((_request, index) => ({ status: index === 0 ? 500 : 200 }));
    const [b1, b2] = await transferBlocks(2);
    await postBlock(t, b1);
    await postBlock(t, b2);
    // The first payload failed once and waits for its retry; the second waits behind it.
    let pending: Record[] = [];
    await until(async () => {
      pending = (await deliveries(t, uuid, '?state=pending')).results;
      return pending.length === 2 && pending.some((r) => r.attempts.length === 1);
    });
    const [second, first] = pending; // newest first
    expect(first.next_attempt_at! - Date.now()).to.be.above(5 * 60_000);

    // The receiver is back: ask for the second one now.
    const res = await send(t.baseUrl, 'POST', `/chainhooks/me/${uuid}/deliveries/${second.id}/redeliver`, {
      key: TEST_API_KEY,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ id: second.id, state: 'pending' });

    // Both go out long before the ten minutes: the first, then the second, in chain order.
    await receiver.waitFor(3, 10_000);
    const sent = receiver.received.map((r) => JSON.parse(r.body).event.apply[0].block_identifier.hash);
    expect(sent).to.deep.equal([b1.index_block_hash, b1.index_block_hash, b2.index_block_hash]);
    await until(async () =>
      (await deliveries(t, uuid)).results.every((r: Record) => r.state === 'delivered'),
    );
  });
});
