import { spawn, type ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import pg from 'pg';
import { acquireIngestLock, type IngestLock } from '../../../adapters/store-postgres/ingest-lock.js';
import { isConnectionFailure } from '../../../adapters/store-postgres/connection-failure.js';
import { schemaOf } from '../../../adapters/store-postgres/database.js';
import { ENQUEUE_LOCK } from '../../../adapters/store-postgres/outbox-queue-writes.js';
import { ARCHIVE_LOCK } from '../../../adapters/store-postgres/pg-block-store.js';
import {
  freshSchemaUrl,
  openTestDatabase,
  postgresAvailable,
  TEST_DATABASE_URL,
} from '../../support/postgres.js';
import { startTcpProxy } from '../../support/tcp-proxy.js';

/** The outcome of a promise after `ms`, without waiting for it any longer. */
async function settledWithin<T>(
  promise: Promise<T>,
  ms: number,
): Promise<'pending' | 'resolved' | 'rejected'> {
  const timer = new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms));
  return Promise.race([
    promise.then(
      () => 'resolved' as const,
      () => 'rejected' as const,
    ),
    timer,
  ]);
}

/** A child process that takes the lock for `url`, prints `locked` and then holds it until killed. */
async function holderProcess(url: string): Promise<ChildProcess> {
  const script = `
    import { acquireIngestLock } from './adapters/store-postgres/ingest-lock.ts';
    await acquireIngestLock(process.argv[1]);
    process.stdout.write('locked\\n');
    setInterval(() => undefined, 60_000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, url], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the holder exited with ${code} before locking`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('locked')) resolve();
    });
  });
  return child;
}

// Mocha decides what to register when the module loads, so the server is asked here, once.
if (!(await postgresAvailable())) {
  describe('acquireIngestLock', () => {
    it(`needs PostgreSQL at ${TEST_DATABASE_URL}, which did not answer (set STACKHOOKS_TEST_DATABASE_URL)`);
  });
} else {
  describe('acquireIngestLock', () => {
    const held: IngestLock[] = [];
    let url: string;

    beforeEach(() => {
      // A schema of its own: the lock is keyed per schema, so parallel runs do not meet.
      url = freshSchemaUrl('ingest');
    });

    afterEach(async () => {
      for (const lock of held.splice(0)) await lock.release();
    });

    it('makes a second acquirer wait while the first holds the lock, and hands it over on release', async () => {
      const first = await acquireIngestLock(url);
      let waiting = 0;
      const second = acquireIngestLock(url, { onWaiting: () => waiting++ });
      expect(await settledWithin(second, 500)).to.equal('pending');
      expect(waiting).to.equal(1);
      await first.release();
      held.push(await second);
    });

    for (const [write, lock] of [
      ['an archive write', ARCHIVE_LOCK],
      ['an enqueue', ENQUEUE_LOCK],
    ] as const) {
      it(`is granted only once ${write} still in flight on another connection has ended`, async () => {
        // What a killed holder leaves behind: its transaction, holding the write lock, on a connection
        // of the pool the lock's own connection knows nothing of.
        const writer = new pg.Client({ connectionString: TEST_DATABASE_URL });
        await writer.connect();
        try {
          await writer.query('BEGIN');
          await writer.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [lock, schemaOf(url)]);
          const taking = acquireIngestLock(url);
          expect(await settledWithin(taking, 500)).to.equal('pending');
          await writer.query('COMMIT');
          held.push(await taking);
        } finally {
          await writer.end();
        }
      });
    }

    it('is granted only once a live step still in flight on another connection has ended', async () => {
      const db = await openTestDatabase('ingest');
      const step = await db.pool.connect();
      try {
        // The hooks' step of a killed holder's last block: the stream's row locked, not yet committed.
        await step.query('BEGIN');
        await step.query('SELECT * FROM live_stream FOR UPDATE');
        const taking = acquireIngestLock(db.url);
        expect(await settledWithin(taking, 500)).to.equal('pending');
        await step.query('COMMIT');
        held.push(await taking);
      } finally {
        step.release();
        await db.drop();
      }
    });

    it('keeps schemas apart: a lock on another schema is granted at once', async () => {
      held.push(await acquireIngestLock(url));
      let waited = false;
      held.push(await acquireIngestLock(freshSchemaUrl('ingest'), { onWaiting: () => (waited = true) }));
      expect(waited).to.equal(false);
    });

    it('gives the lock to the waiter within seconds when the holder process is killed', async function () {
      this.timeout(30_000);
      const child = await holderProcess(url);
      const waiter = acquireIngestLock(url);
      expect(await settledWithin(waiter, 500)).to.equal('pending');
      const killedAt = Date.now();
      child.kill('SIGKILL');
      held.push(await waiter);
      expect(Date.now() - killedAt).to.be.below(5_000);
    });

    it('stops waiting when the signal aborts, with the signal reason, leaving nothing queued', async () => {
      const first = await acquireIngestLock(url);
      const controller = new AbortController();
      // Aborted once the call is blocked on the server, so the waiting statement itself must be cancelled.
      const onWaiting = () => void setTimeout(() => controller.abort(new Error('shutting down')), 300);
      const waiter = acquireIngestLock(url, { signal: controller.signal, onWaiting });
      const error = await waiter.then(
        () => undefined,
        (err: unknown) => err,
      );
      expect((error as Error).message).to.equal('shutting down');
      await first.release();
      // Had the cancelled call stayed queued on the server, it would take the lock now.
      let waited = false;
      held.push(await acquireIngestLock(url, { onWaiting: () => (waited = true) }));
      expect(waited).to.equal(false);
    });

    it('resolves `lost` when the lock connection is cut, after which another process can take the lock', async function () {
      this.timeout(15_000);
      const lock = await acquireIngestLock(url);
      held.push(lock);
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      try {
        const schema = new URL(url).searchParams.get('schema');
        // Two-key advisory locks show their keys as classid/objid (the second as unsigned 32 bits).
        const { rowCount } = await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_locks
           WHERE locktype = 'advisory' AND granted AND classid = 7406301
             AND objid::bigint = (hashtext($1)::bigint & 4294967295)`,
          [schema],
        );
        expect(rowCount).to.equal(1);
      } finally {
        await admin.end();
      }
      expect(await settledWithin(lock.lost, 5_000)).to.equal('resolved');
      held.push(await acquireIngestLock(url));
    });

    it('when the network to the database is cut, loses a held lock and fails a wait, and is granted again once mended', async function () {
      this.timeout(15_000);
      const target = new URL(TEST_DATABASE_URL);
      const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      try {
        const holder = await acquireIngestLock(proxy.via(url));
        held.push(holder);
        const waiter = acquireIngestLock(proxy.via(url));
        expect(await settledWithin(waiter, 300)).to.equal('pending');
        await proxy.cut();
        expect(await settledWithin(holder.lost, 5_000)).to.equal('resolved');
        const failure = await waiter.then(
          () => expect.fail('the wait should fail with its connection'),
          (err: unknown) => err,
        );
        expect(isConnectionFailure(failure), String(failure)).to.equal(true);
        await proxy.mend();
        held.push(await acquireIngestLock(proxy.via(url)));
      } finally {
        await proxy.close();
      }
    });
  });
}
