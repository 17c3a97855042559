import type { Server } from 'node:http';
import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import { FsEventLog } from '../../../adapters/event-log-fs/index.js';
import { createObserverServer, listenObserver } from '../../../adapters/ingest-stacks-node/index.js';
import { migrate, openDatabase, PgEventLog, type Database } from '../../../adapters/store-postgres/index.js';
import { silentLogger } from '../../../adapters/system/index.js';
import { dropSchema, freshSchemaUrl, postgresAvailable, TEST_DATABASE_URL } from '../../support/postgres.js';
import { startTcpProxy } from '../../support/tcp-proxy.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { skipBecause } from '../../support/skip-because.js';

/** The Postgres event log of a migrated schema. */
async function openPgEventLog(db: Database): Promise<PgEventLog> {
  await migrate(db);
  return PgEventLog.open(db);
}

describe('the event observer endpoint', () => {
  let dir: string;
  let log: FsEventLog;
  let server: Server;
  let base: string;
  let woken: number[];

  beforeEach(async () => {
    dir = await makeTempDir('stackhooks-observer-');
    log = await FsEventLog.open(dir);
    woken = [];
    server = createObserverServer({
      log,
      logger: silentLogger,
      onAppended: (id) => woken.push(id),
      now: () => 42,
    });
    base = `http://127.0.0.1:${await listenObserver(server, 0, '127.0.0.1')}`;
  });
  afterEach(async () => {
    await new Promise((r) => server.close(r));
    await log.close();
    await rm(dir, { recursive: true, force: true });
  });

  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });

  for (const path of [
    '/new_block',
    '/new_burn_block',
    '/new_microblocks',
    '/new_mempool_tx',
    '/drop_mempool_tx',
    '/attachments/new',
    '/stackerdb_chunks',
    '/proposal_response',
    '/some_future_path',
  ]) {
    it(`stores a POST to ${path} before answering 200`, async () => {
      const res = await post(path, '{"x":1}');
      expect(res.status).to.equal(200);
      expect(await log.readAfter(0, 10)).to.deep.equal([{ id: 1, received_at: 42, path, body: '{"x":1}' }]);
      expect(woken).to.deep.equal([1]);
    });
  }

  it('answers malformed JSON with a 400 and stores nothing', async () => {
    const res = await post('/new_block', '{"block_hash": ');
    expect(res.status).to.equal(400);
    expect(((await res.json()) as { message: string }).message).to.include('not valid JSON');
    expect(log.lastId()).to.equal(0);
  });

  it('refuses a body declared larger than 64 MB with a 413', async () => {
    const res = await fetch(`${base}/new_block`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.alloc(64 * 1024 * 1024 + 1, 32),
    });
    expect(res.status).to.equal(413);
    expect(log.lastId()).to.equal(0);
  });

  it('keeps the order of posts in the ids it gives', async () => {
    for (let i = 0; i < 20; i++) expect((await post('/new_block', `{"i":${i}}`)).status).to.equal(200);
    expect((await log.readAfter(0, 100)).map((e) => JSON.parse(e.body).i)).to.deep.equal([
      ...Array(20).keys(),
    ]);
  });

  it('times the append apart from the post: a slow store shows in the append time', async () => {
    const timings: { seconds: number; appendSeconds: number }[] = [];
    const slowLog = Object.create(log) as FsEventLog;
    slowLog.append = async (path, body, receivedAt) => {
      await new Promise((resolve) => setTimeout(resolve, 60));
      return log.append(path, body, receivedAt);
    };
    const slow = createObserverServer({
      log: slowLog,
      logger: silentLogger,
      onAppended: (_id, _path, _at, seconds, appendSeconds) => timings.push({ seconds, appendSeconds }),
    });
    const slowBase = `http://127.0.0.1:${await listenObserver(slow, 0, '127.0.0.1')}`;
    try {
      const answer = await fetch(`${slowBase}/new_block`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"slow":true}',
      });
      expect(answer.status).to.equal(200);
      expect(timings).to.have.length(1);
      expect(timings[0].appendSeconds).to.be.at.least(0.055);
      expect(timings[0].seconds).to.be.at.least(timings[0].appendSeconds);
    } finally {
      await new Promise((r) => slow.close(r));
    }
  });
});

describe('the event observer endpoint on a database that went away', function () {
  this.timeout(20_000);

  it('answers 503 with Retry-After, stores nothing, and stores the same post once the database is back', async function () {
    if (!(await postgresAvailable()))
      skipBecause(this, 'no PostgreSQL answers (set STACKHOOKS_TEST_DATABASE_URL or start the local server)');
    const target = new URL(TEST_DATABASE_URL);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const url = freshSchemaUrl('observer');
    const db = await openDatabase(proxy.via(url));
    const woken: number[] = [];
    const server = createObserverServer({
      log: await openPgEventLog(db),
      logger: silentLogger,
      onAppended: (id) => woken.push(id),
    });
    const base = `http://127.0.0.1:${await listenObserver(server, 0, '127.0.0.1')}`;
    const post = () =>
      fetch(`${base}/new_block`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"n":1}',
      });
    try {
      await proxy.cut();
      const refused = await post();
      expect(refused.status).to.equal(503);
      expect(refused.headers.get('retry-after')).to.equal('5');
      expect(await refused.json()).to.deep.equal({
        message: 'store unavailable: the database cannot be reached; retry later',
      });
      expect(woken).to.deep.equal([]);
      await proxy.mend();
      const stored = await post();
      expect(stored.status).to.equal(200);
      expect(await stored.json()).to.deep.equal({ result: 'ok', id: 1 });
      expect(woken).to.deep.equal([1]);
    } finally {
      await new Promise((r) => server.close(r));
      await db.close();
      await proxy.close();
      await dropSchema(url);
    }
  });
});

describe('the event observer endpoint under big bodies', () => {
  it('answers 503 with Retry-After to a body that would pass the bound while another is held, and takes it later', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const stored: string[] = [];
    let appending = false;
    const log = {
      append: async (_path: string, body: string) => {
        appending = true;
        if (stored.length === 0) await held;
        stored.push(body);
        return stored.length;
      },
    } as unknown as FsEventLog;
    const server = createObserverServer({
      log,
      logger: silentLogger,
      onAppended: () => undefined,
      bodiesInFlightBytes: 100,
    });
    const base = `http://127.0.0.1:${await listenObserver(server, 0, '127.0.0.1')}`;
    const post = (body: string) =>
      fetch(`${base}/new_block`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    try {
      const first = post(JSON.stringify({ pad: 'x'.repeat(80) }));
      // The first body is held once the log is asked to store it.
      while (!appending) await new Promise((r) => setTimeout(r, 10));
      const refused = await post(JSON.stringify({ second: 'y'.repeat(40) }));
      expect(refused.status).to.equal(503);
      expect(refused.headers.get('retry-after')).to.equal('1');
      release();
      expect((await first).status).to.equal(200);
      expect((await post(JSON.stringify({ second: 'y'.repeat(40) }))).status).to.equal(200);
      expect(stored).to.have.length(2);
    } finally {
      release();
      await new Promise((r) => server.close(r));
    }
  });
});
