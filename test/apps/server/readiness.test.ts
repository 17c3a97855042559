import { expect } from 'chai';
import { startTestServer, untilIngested, type TestServer } from '../../support/api-server.js';
import { ChainBuilder } from '../../support/block-builder.js';
import { postBlock } from '../../support/delivery-server.js';
import { dropSchema, freshSchemaUrl, postgresAvailable, TEST_DATABASE_URL } from '../../support/postgres.js';
import { send } from '../../support/raw-http.js';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js';

type Readiness = { ready: boolean; reasons: { name: string; reason: string; since: number }[] };

async function ready(t: TestServer): Promise<{ status: number; body: Readiness }> {
  const res = await send(t.baseUrl, 'GET', '/ready');
  return { status: res.status, body: res.body as Readiness };
}

async function until(t: TestServer, wanted: boolean): Promise<Readiness> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { status, body } = await ready(t);
    expect(status).to.equal(body.ready ? 200 : 503);
    if (body.ready === wanted) return body;
    if (Date.now() > deadline) throw new Error(`/ready stayed ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('GET /health and GET /ready', function () {
  this.timeout(60_000);
  let t: TestServer | undefined;
  afterEach(async () => t?.stop());

  it('answers /health and /ready without a key', async () => {
    t = await startTestServer();
    expect((await send(t.baseUrl, 'GET', '/health')).body).to.deep.equal({ status: 'ok' });
    expect(await ready(t)).to.deep.equal({ status: 200, body: { ready: true, reasons: [] } });
  });

  it('turns unready when no block has come for longer than the age allowed, and ready again with the next', async () => {
    t = await startTestServer({ STACKHOOKS_READY_MAX_BLOCK_AGE: '3s' });
    const chain = new ChainBuilder();
    const stalled = await until(t, false);
    expect(stalled.reasons.map((r) => r.name)).to.deep.equal(['chain_stalled']);
    expect(stalled.reasons[0].reason).to.include('no block has come since the start');
    await postBlock(t, chain.next());
    await untilIngested(t);
    await until(t, true);
    const again = await until(t, false);
    expect(again.reasons[0].reason).to.match(/no block for \ds/);
  });

  it('shows the last block’s time and the lag on the status route', async () => {
    t = await startTestServer();
    const before = (await send(t.baseUrl, 'GET', '/chainhooks/v1')).body;
    expect(before.ingest).to.deep.include({ last_block_at: null, lag_seconds: 0 });
    // Stored but not processed yet: it waits, and the lag grows.
    await t.server.stackhooks.ingest.pause();
    const postedAt = Date.now();
    await postBlock(t, new ChainBuilder().next());
    await new Promise((resolve) => setTimeout(resolve, 200));
    const waiting = (await send(t.baseUrl, 'GET', '/chainhooks/v1')).body;
    expect(waiting.ingest.entries_behind).to.equal(1);
    expect(waiting.ingest.lag_seconds).to.be.at.least(0.2);
    t.server.stackhooks.ingest.resume();
    t.server.blockProcessing!.wake();
    await untilIngested(t);
    const after = (await send(t.baseUrl, 'GET', '/chainhooks/v1')).body;
    expect(after.ingest.lag_seconds).to.equal(0);
    expect(after.ingest.last_block_at).to.be.within(postedAt - 1000, Date.now());
  });
});

const available = await postgresAvailable();
(available ? describe : describe.skip)('GET /ready on PostgreSQL', function () {
  this.timeout(90_000);
  let proxy: TcpProxy;
  let url: string;
  let t: TestServer | undefined;
  beforeEach(async () => {
    const shared = new URL(TEST_DATABASE_URL);
    proxy = await startTcpProxy({ host: shared.hostname, port: Number(shared.port || 5432) });
    url = freshSchemaUrl('ready');
  });
  afterEach(async () => {
    await t?.stop();
    await proxy.close();
    await dropSchema(url);
  });

  it('turns unready while the database is unreachable, and ready again once it answers', async () => {
    t = await startTestServer({ STACKHOOKS_DATABASE_URL: proxy.via(url) });
    await until(t, true);
    await proxy.cut();
    const down = await until(t, false);
    expect(down.reasons.map((r) => r.name)).to.satisfy((names: string[]) =>
      names.some((name) => name === 'database_unreachable' || name === 'stores_unreachable'),
    );
    await proxy.mend();
    await until(t, true);
  });
});
