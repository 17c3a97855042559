import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { TEST_API_KEY } from '../../support/api-server.js';
import {
  NodePoster,
  callApi,
  deliveredHeights,
  eventually,
  expectEveryBlockDelivered,
  occurrences,
  registerTransferHooks,
  terminateSessionsOf,
  transferChain,
} from '../../support/outage-drill.js';
import { dropSchema, freshSchemaUrl, postgresAvailable, TEST_DATABASE_URL } from '../../support/postgres.js';
import { startPrivatePostgres, type PrivatePostgres } from '../../support/private-postgres.js';
import { send } from '../../support/raw-http.js';
import { freePort, spawnServer, type ServerProcess } from '../../support/server-process.js';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { startTestReceiver, type TestReceiver } from '../../support/test-receiver.js';
import { skipBecause } from '../../support/skip-because.js';

const available = await postgresAvailable();
const shared = new URL(TEST_DATABASE_URL);
const sharedServer = { host: shared.hostname, port: Number(shared.port || 5432) };

const ACTIVE = '"msg":"block processing active"';
const UNREACHABLE = '"msg":"database unreachable; retrying until it answers"';
const REACHABLE = '"msg":"database reachable again"';
const WAITING = '"msg":"database not reachable yet; waiting for it"';

if (!available) {
  describe('a PostgreSQL outage', () => {
    it('is skipped because PostgreSQL is not reachable (set STACKHOOKS_TEST_DATABASE_URL)');
  });
}

(available ? describe : () => undefined)('a PostgreSQL outage', function (this: Mocha.Suite) {
  this.timeout(240_000);
  let processes: ServerProcess[];
  let cleanups: (() => Promise<void>)[];
  let receiver: TestReceiver;

  beforeEach(async () => {
    processes = [];
    cleanups = [];
    receiver = await startTestReceiver();
  });

  afterEach(async () => {
    for (const p of processes) if (p.child.exitCode === null) p.child.kill('SIGTERM');
    await Promise.all(processes.map((p) => p.exited));
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    await receiver.close();
  });

  /** Start a server process on `databaseUrl` and remember it for the clean-up. */
  async function server(
    databaseUrl: string,
    extra: Record<string, string> = {},
    readyLine?: string,
    watch?: (output: string) => void,
  ) {
    const started = await spawnServer(
      {
        STACKHOOKS_DATABASE_URL: databaseUrl,
        STACKHOOKS_DATA_DIR: await makeTempDir(),
        STACKHOOKS_API_KEY: TEST_API_KEY,
        STACKHOOKS_RATE_LIMIT_PER_MINUTE: '1000000',
        STACKHOOKS_DELIVERY_LEASE: '3s',
        STACKHOOKS_DELIVERY_TIMEOUT: '2s',
        ...extra,
      },
      readyLine,
      watch,
    );
    processes.push(started);
    return started;
  }

  function expectAllRunning(): void {
    for (const p of processes) {
      expect(p.child.exitCode, p.output()).to.equal(null);
      expect(p.output()).to.not.match(/Unhandled|uncaught/i);
    }
  }

  /** The status route once the service has caught up: no condition left, nothing behind. */
  async function expectCaughtUp(apiBase: string, tipHeight: number): Promise<void> {
    await eventually(async () => {
      const status = (await callApi(apiBase, 'GET', '/chainhooks/v1')).body;
      return status.conditions.length === 0 && status.ingest.entries_behind === 0;
    }, 'the status route to show no condition and no backlog');
    const status = (await callApi(apiBase, 'GET', '/chainhooks/v1')).body;
    expect(status.status).to.equal('ready');
    expect(status.chain_tip.block_height).to.equal(tipHeight);
  }

  async function proxyToShared(options?: { open?: boolean }): Promise<TcpProxy> {
    const proxy = await startTcpProxy(sharedServer, options);
    cleanups.push(() => proxy.close());
    return proxy;
  }

  function freshSchema(prefix: string): string {
    const url = freshSchemaUrl(prefix);
    cleanups.push(() => dropSchema(url));
    return url;
  }

  it('loses nothing through a 3 s cut of every connection under load, answering 503 meanwhile, and resumes without a restart', async () => {
    const proxy = await proxyToShared();
    const observerPort = await freePort();
    const app = await server(proxy.via(freshSchema('cut')), {
      STACKHOOKS_OBSERVER_PORT: String(observerPort),
    });
    const paths = await registerTransferHooks(app.baseUrl, receiver, 3);
    const blocks = await transferChain(45);
    const node = new NodePoster(() => observerPort);
    const posting = node.post(blocks, 40);
    await eventually(() => node.acknowledged.length >= 15, '15 blocks acknowledged');

    await proxy.cut();
    const refused = await send(app.baseUrl, 'GET', '/chainhooks/me', { key: TEST_API_KEY });
    expect(refused.status).to.equal(503);
    expect(refused.headers['retry-after']).to.equal('5');
    expect(refused.body.message).to.equal('store unavailable: the database cannot be reached; retry later');
    await eventually(() => node.answers.some((a) => a.status === 503), 'the observer to refuse a block');
    expect(node.answers.find((a) => a.status === 503)?.retryAfter).to.equal('5');
    await sleep(3_000);
    await proxy.mend();

    await posting;
    await expectEveryBlockDelivered(receiver, paths, blocks);
    await expectCaughtUp(app.baseUrl, blocks.at(-1)!.block_height);
    expectAllRunning();
    const log = app.output();
    expect(log).to.include(UNREACHABLE);
    expect(log).to.include(REACHABLE);
    expect(log).to.include('"msg":"ingest lock lost; pausing block processing and taking the lock again"');
    expect(occurrences(log, ACTIVE)).to.be.at.least(2);
    // The outage is told by its own lines, not again by each delivery round or backfill look it stops.
    expect(log).to.not.include('"msg":"delivery round failed"');
    expect(log).to.not.include('"msg":"starting backfills failed"');
  });

  it('loses nothing while its database sessions are terminated every 700 ms under load', async () => {
    const url = freshSchema('kill');
    const schema = new URL(url).searchParams.get('schema')!;
    const observerPort = await freePort();
    const app = await server(url, { STACKHOOKS_OBSERVER_PORT: String(observerPort) });
    const paths = await registerTransferHooks(app.baseUrl, receiver, 3);
    const blocks = await transferChain(45);
    const node = new NodePoster(() => observerPort);
    let posted = false;
    const posting = node.post(blocks, 80).finally(() => (posted = true));
    let terminated = 0;
    while (!posted) {
      await sleep(700);
      terminated += await terminateSessionsOf(schema);
    }
    await posting;
    await expectEveryBlockDelivered(receiver, paths, blocks);
    await expectCaughtUp(app.baseUrl, blocks.at(-1)!.block_height);
    expectAllRunning();
    expect(terminated).to.be.greaterThan(5);
    expect(app.output()).to.include(
      '"msg":"a database connection was lost; the database answers, so the work is retried"',
    );
  });

  it("keeps a split deployment's ingest matching the hooks changed while its change feed was cut", async () => {
    const url = freshSchema('feed');
    const schema = new URL(url).searchParams.get('schema')!;
    const observerPort = await freePort();
    const api = await server(url, { ROLE: 'api' });
    const ingest = await server(
      url,
      { ROLE: 'ingest', STACKHOOKS_OBSERVER_PORT: String(observerPort) },
      ACTIVE,
    );
    await server(url, { ROLE: 'worker' }, '"msg":"delivery started"');
    const [first] = await registerTransferHooks(api.baseUrl, receiver, 1);
    const blocks = await transferChain(10);
    const node = new NodePoster(() => observerPort);
    await node.post(blocks.slice(0, 3));
    await expectEveryBlockDelivered(receiver, [first], blocks.slice(0, 3));

    // Each round ends the ingest's feed session and changes hooks at once, while it listens again.
    const added: string[] = [];
    for (let round = 1; round <= 3; round++) {
      expect(await terminateSessionsOf(schema, 'hook feed')).to.equal(1);
      added.push(...(await registerTransferHooks(api.baseUrl, receiver, 1, `/added-${round}-`)));
      if (round === 2) {
        const off = { enabled: false, filters: { webhook_url: receiver.url(first) } };
        expect((await callApi(api.baseUrl, 'PATCH', '/chainhooks/me/enabled', off)).status).to.equal(200);
      }
      const relistened = '"msg":"hook change feed listening again; reloading hooks"';
      await eventually(() => occurrences(ingest.output(), relistened) === round, 'the feed to listen again');
    }

    await node.post(blocks.slice(3));
    await expectEveryBlockDelivered(receiver, added, blocks.slice(3));
    expect(deliveredHeights(receiver).get(first)).to.deep.equal(
      blocks.slice(0, 3).map((b) => b.block_height),
    );
    expectAllRunning();
    // The lock held throughout: the catch-up came from the feed, not from taking the lock again.
    expect(occurrences(ingest.output(), ACTIVE)).to.equal(1);
  });

  it('loses nothing through a restart and a crash-like stop of the database itself', async function () {
    const cluster = await startPrivatePostgres();
    if ('skipped' in cluster) {
      skipBecause(this, cluster.skipped);
    }
    const database: PrivatePostgres = cluster;
    cleanups.push(() => database.destroy());
    const observerPort = await freePort();
    const app = await server(database.url('restart'), { STACKHOOKS_OBSERVER_PORT: String(observerPort) });
    const paths = await registerTransferHooks(app.baseUrl, receiver, 3);
    const blocks = await transferChain(60);
    const node = new NodePoster(() => observerPort);
    const posting = node.post(blocks, 40);

    await eventually(() => node.acknowledged.length >= 15, '15 blocks acknowledged');
    await database.restart();
    await eventually(() => node.acknowledged.length >= 35, '35 blocks acknowledged');
    await database.crash();
    await sleep(5_000);
    await database.start();

    await posting;
    await expectEveryBlockDelivered(receiver, paths, blocks);
    await expectCaughtUp(app.baseUrl, blocks.at(-1)!.block_height);
    expectAllRunning();
    expect(occurrences(app.output(), ACTIVE)).to.be.at.least(3);
  });

  it('waits for a database that comes up 10 s after the start, then serves and delivers', async () => {
    const proxy = await proxyToShared({ open: false });
    const observerPort = await freePort();
    // The database comes up once the server has tried it three times (about 10 s), however long
    // the process took to start on a busy machine.
    let mended = false;
    const app = await server(
      proxy.via(freshSchema('late')),
      { STACKHOOKS_OBSERVER_PORT: String(observerPort) },
      undefined,
      (output) => {
        if (mended || occurrences(output, WAITING) < 3) return;
        mended = true;
        void proxy.mend();
      },
    );
    const paths = await registerTransferHooks(app.baseUrl, receiver, 2);
    const blocks = await transferChain(10);
    await new NodePoster(() => observerPort).post(blocks);
    await expectEveryBlockDelivered(receiver, paths, blocks);
    await expectCaughtUp(app.baseUrl, blocks.at(-1)!.block_height);
    expectAllRunning();
    expect(occurrences(app.output(), WAITING)).to.be.at.least(3);
  });

  it('gives up after STACKHOOKS_DATABASE_WAIT with one line naming the database', async () => {
    const proxy = await proxyToShared({ open: false });
    const failure = await server(proxy.via(freshSchema('never')), { STACKHOOKS_DATABASE_WAIT: '2s' }).then(
      () => expect.fail('the server should not start'),
      (err: Error) => err.message,
    );
    expect(failure).to.match(/^server exited early \(1\)/);
    const lines = failure.trim().split('\n');
    expect(lines.at(-1)).to.equal(
      `stackhooks: could not reach PostgreSQL at 127.0.0.1:${proxy.port}/test within 2 s: ` +
        `connect ECONNREFUSED 127.0.0.1:${proxy.port} (STACKHOOKS_DATABASE_WAIT sets how long to wait)`,
    );
    expect(failure).to.not.match(/^\s+at /m);
  });

  it('brings the split deployment (api, active and standby ingest, worker) through a 3 s cut', async () => {
    const proxy = await proxyToShared();
    const url = proxy.via(freshSchema('split'));
    const [portA, portB] = [await freePort(), await freePort()];
    const api = await server(url, { ROLE: 'api' });
    const ingestA = await server(url, { ROLE: 'ingest', STACKHOOKS_OBSERVER_PORT: String(portA) }, ACTIVE);
    const ingestB = await server(
      url,
      { ROLE: 'ingest', STACKHOOKS_OBSERVER_PORT: String(portB) },
      '"msg":"another ingest process is active; waiting for its lock"',
    );
    await server(url, { ROLE: 'worker' }, '"msg":"delivery started"');
    const paths = await registerTransferHooks(api.baseUrl, receiver, 3);
    const blocks = await transferChain(45);
    const node = new NodePoster(() => portA);
    const posting = node.post(blocks, 40);
    await eventually(() => node.acknowledged.length >= 15, '15 blocks acknowledged');

    await proxy.cut();
    await sleep(3_000);
    await proxy.mend();

    await posting;
    await expectEveryBlockDelivered(receiver, paths, blocks);
    await expectCaughtUp(api.baseUrl, blocks.at(-1)!.block_height);
    expectAllRunning();
    // One of the two took the lock again; the other waits behind it, as a standby should.
    const activations = occurrences(ingestA.output(), ACTIVE) + occurrences(ingestB.output(), ACTIVE);
    expect(activations).to.be.at.least(2);
  });
});
