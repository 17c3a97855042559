import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { startTestServer, TEST_API_KEY, type TestServer } from '../../support/api-server.js';
import { validateChainhookEvent } from '../../support/chainhook-event-schema.js';
import { send } from '../../support/raw-http.js';
import {
  deliveries,
  postBlock,
  registerTransferHook,
  transferBlocks,
  until,
} from '../../support/delivery-server.js';
import { startTestReceiver, type TestReceiver } from '../../support/test-receiver.js';

const key = TEST_API_KEY;
const FAST = { STACKHOOKS_RETRY_SCHEDULE: '0,50ms,100ms,150ms', STACKHOOKS_DELIVERY_TIMEOUT: '400ms' };

/** Standard Webhooks, computed here from scratch: not the sender's code. */
function expectedSignature(secretHex: string, id: string, timestamp: string, body: string): string {
  return (
    'v1,' +
    createHmac('sha256', Buffer.from(secretHex, 'hex')).update(`${id}.${timestamp}.${body}`).digest('base64')
  );
}

describe('webhook delivery through the server', function () {
  this.timeout(60_000);
  let t: TestServer;
  let receiver: TestReceiver;
  beforeEach(async () => {
    receiver = await startTestReceiver();
    t = await startTestServer(FAST);
  });
  afterEach(async () => {
    await t.stop();
    await receiver.close();
  });

  it('sends every header of compat.md section 7 with a Standard Webhooks signature that verifies', async () => {
    const uuid = await registerTransferHook(t, receiver.url());
    const { body: secret } = await send(t.baseUrl, 'POST', '/chainhooks/me/secret', { key });
    const [b1] = await transferBlocks(1);
    await postBlock(t, b1);
    await receiver.waitFor(1);
    const [request] = receiver.received;
    const h = request.headers;
    expect(h['content-type']).to.equal('application/json');
    expect(h['user-agent']).to.match(/^stackhooks\/\d+\.\d+\.\d+$/);
    expect(h['webhook-id']).to.match(/^msg_[0-9a-f]{32}$/);
    expect(Math.abs(Number(h['webhook-timestamp']) - Date.now() / 1000)).to.be.below(10);
    expect(h.authorization).to.equal(`Bearer ${secret.secret}`);
    expect(h['x-chainhook-consumer-secret']).to.equal(secret.secret);
    expect(h['webhook-signature']).to.equal(
      expectedSignature(secret.secret, String(h['webhook-id']), String(h['webhook-timestamp']), request.body),
    );
    const body = JSON.parse(request.body);
    expect(validateChainhookEvent(body)).to.deep.equal([]);
    expect(body.chainhook.uuid).to.equal(uuid);
    expect(body.event.apply[0].block_identifier.hash).to.equal(b1.index_block_hash);
  });

  it('sends no secret headers when the owner has no consumer secret', async () => {
    await registerTransferHook(t, receiver.url());
    await postBlock(t, (await transferBlocks(1))[0]);
    await receiver.waitFor(1);
    const h = receiver.received[0].headers;
    expect(h).to.not.have.property('authorization');
    expect(h).to.not.have.property('webhook-signature');
    expect(h).to.not.have.property('x-chainhook-consumer-secret');
  });

  it('retries a 500 with the same webhook-id and logs every attempt', async () => {
    const uuid = await registerTransferHook(t, receiver.url());
    receiver.reply((_, i) => ({ status: i < 2 ? 500 : 200 }));
    await postBlock(t, (await transferBlocks(1))[0]);
    await receiver.waitFor(3);
    const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
    expect(ids.size).to.equal(1);
    await until(async () => (await deliveries(t, uuid)).results[0]?.state === 'delivered');
    const [record] = (await deliveries(t, uuid)).results;
    expect(record.attempts.map((a: { status_code: number }) => a.status_code)).to.deep.equal([500, 500, 200]);
    expect(record.attempts[0].error).to.equal('HTTP 500');
  });

  it('keeps chain order per hook while the first payload is being retried', async () => {
    await registerTransferHook(t, receiver.url());
    receiver.reply((_, i) => ({ status: i < 2 ? 503 : 200 }));
    const chain = await transferBlocks(3);
    for (const block of chain) await postBlock(t, block);
    await receiver.waitFor(5);
    const delivered = receiver.received
      .slice(2)
      .map((r) => JSON.parse(r.body).event.apply[0].block_identifier.index as number);
    expect(delivered).to.deep.equal(chain.map((b) => b.block_height));
  });

  it('honours Retry-After on a 429', async () => {
    await registerTransferHook(t, receiver.url());
    receiver.reply((_, i) => (i === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 }));
    await postBlock(t, (await transferBlocks(1))[0]);
    await receiver.waitFor(2);
    expect(receiver.received[1].at - receiver.received[0].at).to.be.at.least(950);
  });

  it('interrupts and disables the hook at once on a 410, failing it visibly', async () => {
    const uuid = await registerTransferHook(t, receiver.url());
    receiver.reply(() => ({ status: 410 }));
    await postBlock(t, (await transferBlocks(1))[0]);
    await until(async () => (await deliveries(t, uuid)).results[0]?.state === 'failed');
    const hookStatus = async () =>
      (await send(t.baseUrl, 'GET', `/chainhooks/me/${uuid}`, { key })).body.status;
    await until(async () => (await hookStatus()).status === 'interrupted');
    expect(await hookStatus()).to.include({ status: 'interrupted', enabled: false });
    const [record] = (await deliveries(t, uuid, '?state=failed')).results;
    expect(record.attempts.length).to.equal(1);
    expect(record.failure_reason).to.include('410');
  });

  it('interrupts the hook when the retries are used up against a refusing target', async () => {
    const dead = await startTestReceiver();
    const url = dead.url();
    await dead.close();
    const uuid = await registerTransferHook(t, url);
    await postBlock(t, (await transferBlocks(1))[0]);
    await until(async () => (await deliveries(t, uuid)).results[0]?.state === 'failed');
    const [record] = (await deliveries(t, uuid)).results;
    expect(record.attempts.length).to.equal(4);
    expect(record.attempts.every((a: { error: string }) => /refused/.test(a.error))).to.equal(true);
    const hookStatus = async () =>
      (await send(t.baseUrl, 'GET', `/chainhooks/me/${uuid}`, { key })).body.status;
    await until(async () => (await hookStatus()).status === 'interrupted');
    expect(await hookStatus()).to.include({ status: 'interrupted', enabled: false });
  });

  it('counts an attempt that hangs past the timeout as failed and retries it', async () => {
    const uuid = await registerTransferHook(t, receiver.url());
    receiver.reply((_, i) => (i === 0 ? 'hang' : { status: 200 }));
    await postBlock(t, (await transferBlocks(1))[0]);
    await until(async () => (await deliveries(t, uuid)).results[0]?.state === 'delivered');
    const [record] = (await deliveries(t, uuid)).results;
    expect(record.attempts[0].error).to.match(/timeout/);
    expect(record.attempts[0].latency_ms).to.be.at.least(350);
  });

  it('signs the next attempt with a rotated secret', async () => {
    await registerTransferHook(t, receiver.url());
    const first = (await send(t.baseUrl, 'POST', '/chainhooks/me/secret', { key })).body.secret;
    receiver.reply((_, i) => (i === 0 ? { status: 500 } : { status: 200 }));
    await postBlock(t, (await transferBlocks(1))[0]);
    await receiver.waitFor(1);
    const rotated = (await send(t.baseUrl, 'POST', '/chainhooks/me/secret', { key })).body.secret;
    await receiver.waitFor(2);
    const [a, b] = receiver.received;
    const sig = (r: typeof a, s: string) =>
      expectedSignature(s, String(r.headers['webhook-id']), String(r.headers['webhook-timestamp']), r.body);
    expect(a.headers['webhook-signature']).to.equal(sig(a, first));
    expect(b.headers['webhook-signature']).to.equal(sig(b, rotated));
  });

  it('redelivers a failed payload with the same webhook-id once its interrupted hook is enabled again', async () => {
    const uuid = await registerTransferHook(t, receiver.url());
    receiver.reply(() => ({ status: 410 }));
    await postBlock(t, (await transferBlocks(1))[0]);
    await until(async () => (await deliveries(t, uuid)).results[0]?.state === 'failed');
    receiver.reply(() => ({ status: 200 }));
    const enabled = await send(t.baseUrl, 'PATCH', `/chainhooks/me/${uuid}/enabled`, {
      key,
      body: JSON.stringify({ enabled: true }),
    });
    expect(enabled.status).to.equal(204);
    const [failed] = (await deliveries(t, uuid)).results;
    const res = await send(t.baseUrl, 'POST', `/chainhooks/me/${uuid}/deliveries/${failed.id}/redeliver`, {
      key,
    });
    expect(res.status).to.equal(200);
    expect(res.body.state).to.equal('pending');
    await until(async () => (await deliveries(t, uuid)).results[0]?.state === 'delivered');
    expect(receiver.received.at(-1)!.headers['webhook-id']).to.equal(failed.id);
  });

  it('answers the delivery log of an unknown hook with a 404 and a bad state filter with a 400', async () => {
    const missing = await send(
      t.baseUrl,
      'GET',
      '/chainhooks/me/00000000-0000-4000-8000-000000000000/deliveries',
      { key },
    );
    expect(missing.status).to.equal(404);
    const uuid = await registerTransferHook(t, receiver.url());
    const bad = await send(t.baseUrl, 'GET', `/chainhooks/me/${uuid}/deliveries?state=lost`, { key });
    expect(bad.status).to.equal(400);
    expect(bad.body.message).to.include('state');
    const badId = await send(t.baseUrl, 'POST', `/chainhooks/me/${uuid}/deliveries/nope/redeliver`, { key });
    expect(badId.status).to.equal(400);
  });
});
