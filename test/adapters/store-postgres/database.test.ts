import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { openDatabase, type Database } from '../../../adapters/store-postgres/database.js';
import type { DatabaseHealthEvent } from '../../../adapters/store-postgres/connection-health.js';
import { StackhooksError } from '../../../core/hooks/errors.js';
import { freshSchemaUrl, postgresAvailable, TEST_DATABASE_URL } from '../../support/postgres.js';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js';

/** Wait until `check` holds, polling; fails the test with `what` after `ms`. */
async function eventually(check: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a rejection'),
    (err: unknown) => err,
  );
}

/** End the backends of `schema`'s pool (they name themselves `stackhooks <schema>`). */
async function terminateBackends(schema: string): Promise<number> {
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    const { rows } = await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
      [`stackhooks ${schema}`],
    );
    return rows.length;
  } finally {
    await admin.end();
  }
}

if (!(await postgresAvailable())) {
  describe('openDatabase through connection faults', () => {
    it(`needs PostgreSQL at ${TEST_DATABASE_URL}, which did not answer (set STACKHOOKS_TEST_DATABASE_URL)`);
  });
} else {
  describe('openDatabase through connection faults', () => {
    const target = new URL(TEST_DATABASE_URL);
    let proxy: TcpProxy;
    let db: Database | undefined;
    let events: DatabaseHealthEvent[];

    beforeEach(async () => {
      proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      events = [];
    });

    afterEach(async () => {
      await db?.close().catch(() => undefined);
      db = undefined;
      await proxy.close();
    });

    async function openThroughProxy(): Promise<Database> {
      db = await openDatabase(proxy.via(freshSchemaUrl('dbfault')), { max: 4 });
      db.health.onChange((event) => events.push(event));
      await db.pool.query('CREATE TABLE t (n integer)');
      return db;
    }

    it('rejects a query with a 503-kind store failure while the connection is cut, not a driver error', async () => {
      const store = await openThroughProxy();
      await proxy.cut();
      const err = await rejection(store.pool.query('SELECT 1'));
      expect(err).to.be.instanceOf(StackhooksError);
      expect((err as StackhooksError).code).to.equal('unavailable');
      expect((err as StackhooksError).retryAfterSeconds).to.be.a('number');
      expect((err as StackhooksError).message).to.equal(
        'store unavailable: the database cannot be reached; retry later',
      );
    });

    it('raises unreachable while cut and reachable once mended, with no query of the caller needed', async () => {
      const store = await openThroughProxy();
      await proxy.cut();
      await rejection(store.pool.query('SELECT 1'));
      await eventually(() => !store.health.reachable, 'the unreachable state');
      expect(events.map((e) => e.kind)).to.deep.equal(['unreachable']);
      expect(store.health.counters.outages).to.equal(1);
      await proxy.mend();
      await eventually(() => store.health.reachable, 'the database to be seen again');
      expect(events.map((e) => e.kind)).to.deep.equal(['unreachable', 'reachable']);
      expect((await store.pool.query('SELECT count(*)::int AS n FROM t')).rows[0].n).to.equal(0);
    });

    it('rolls back and rejects a transaction whose backend is terminated midway, and the pool goes on', async () => {
      const store = await openThroughProxy();
      const transaction = store.transaction(async (client) => {
        await client.query('INSERT INTO t VALUES (1)');
        // Killed between two statements: with nobody listening, the client's error event would end the process.
        await terminateBackends(store.schema);
        await sleep(200);
        await client.query('INSERT INTO t VALUES (2)');
      });
      const err = await rejection(transaction);
      expect((err as StackhooksError).code).to.equal('unavailable');
      expect((await store.pool.query('SELECT count(*)::int AS n FROM t')).rows[0].n).to.equal(0);
      await eventually(() => events.some((e) => e.kind === 'connection_lost'), 'the lost connection report');
      expect(store.health.reachable).to.equal(true);
    });

    it('survives idle connections terminated by the server and serves the next query', async () => {
      const store = await openThroughProxy();
      await Promise.all([1, 2, 3].map(() => store.pool.query('SELECT pg_sleep(0.05)')));
      const killed = await terminateBackends(store.schema);
      expect(killed).to.be.greaterThan(0);
      await eventually(
        () => store.health.counters.connectionFailures >= killed,
        'the idle connections to fail',
      );
      expect((await store.pool.query('SELECT 1 AS one')).rows[0].one).to.equal(1);
    });

    it('commits a transaction after a cut and mend, on a fresh connection', async () => {
      const store = await openThroughProxy();
      await proxy.cut();
      expect(
        ((await rejection(store.transaction((c) => c.query('SELECT 1')))) as StackhooksError).code,
      ).to.equal('unavailable');
      await proxy.mend();
      await store.transaction((client) => client.query('INSERT INTO t VALUES (7)'));
      expect((await store.pool.query('SELECT n FROM t')).rows).to.deep.equal([{ n: 7 }]);
    });

    it('turns a statement the server cancelled, or a deadlock, into a 503-kind store failure and goes on', async () => {
      const store = await openThroughProxy();
      await store.pool.query('INSERT INTO t VALUES (1), (2)');
      const cancelled = await rejection(
        store.transaction(async (client) => {
          await client.query("SET LOCAL statement_timeout = '50ms'");
          await client.query('SELECT pg_sleep(5)');
        }),
      );
      expect(cancelled).to.be.instanceOf(StackhooksError).and.include({ code: 'unavailable' });
      expect(((cancelled as Error).cause as { code?: string }).code).to.equal('57014');

      // Two transactions take the same two rows' locks in opposite orders, each holding its first
      // before the other asks for it: the server ends one of them.
      let holdsOne: () => void = () => undefined;
      let holdsTwo: () => void = () => undefined;
      const oneHeld = new Promise<void>((resolve) => (holdsOne = resolve));
      const twoHeld = new Promise<void>((resolve) => (holdsTwo = resolve));
      const touch = 'UPDATE t SET n = n WHERE n = $1';
      const outcomes = await Promise.allSettled([
        store.transaction(async (client) => {
          await client.query(touch, [1]);
          holdsOne();
          await twoHeld;
          await client.query(touch, [2]);
        }),
        oneHeld.then(() =>
          store.transaction(async (client) => {
            await client.query(touch, [2]);
            holdsTwo();
            await client.query(touch, [1]);
          }),
        ),
      ]);
      const failed = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect(failed).to.have.length(1);
      expect(failed[0].reason).to.be.instanceOf(StackhooksError).and.include({ code: 'unavailable' });
      expect((failed[0].reason.cause as { code?: string }).code).to.equal('40P01');
      expect((await store.pool.query('SELECT count(*)::int AS n FROM t')).rows).to.deep.equal([{ n: 2 }]);
      expect(events).to.deep.equal([]);
    });

    it('passes statement errors on as they are', async () => {
      const store = await openThroughProxy();
      const err = await rejection(store.pool.query('SELECT * FROM no_such_table'));
      expect(err).to.not.be.instanceOf(StackhooksError);
      expect((err as { code?: string }).code).to.equal('42P01');
      expect(events).to.deep.equal([]);
    });
  });
}
