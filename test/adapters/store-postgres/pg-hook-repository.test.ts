import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import {
  openDatabase,
  PgAccountStore,
  PgHookChangeFeed,
  PgHookRepository,
  type Database,
  type HookChangeFeedOptions,
} from '../../../adapters/store-postgres/index.js';
import { createHook } from '../../../core/hooks/lifecycle.js';
import type { StoredHook } from '../../../core/hooks/record.js';
import { accountStoreContract } from '../../contracts/account-store.contract.js';
import { hookRepositoryContract } from '../../contracts/hook-repository.contract.js';
import { openTestDatabase, postgresAvailable, TEST_DATABASE_URL } from '../../support/postgres.js';
import { startTcpProxy } from '../../support/tcp-proxy.js';

/**
 * A migrated schema of its own; `reopen` closes the pool and opens a new one on the same schema, and
 * `crash` opens another beside it, as a process started after another one died would.
 */
async function openFreshSchema(): Promise<{
  current: () => Database;
  reopen: () => Promise<Database>;
  crash: () => Promise<Database>;
  cleanup: () => Promise<void>;
}> {
  const first = await openTestDatabase('hooks');
  let current: Database = first;
  const crashed: Database[] = [];
  return {
    current: () => current,
    reopen: async () => {
      await current.close();
      current = await openDatabase(first.url);
      return current;
    },
    crash: async () => {
      crashed.push(current);
      current = await openDatabase(first.url);
      return current;
    },
    cleanup: async () => {
      await current.pool.query(`DROP SCHEMA IF EXISTS "${current.schema}" CASCADE`);
      for (const db of [...crashed, current]) await db.close();
    },
  };
}

/** Begin an insert of `hook` and end its connection before it commits, as a crash mid-write does. */
async function insertCutOff(db: Database, hook: StoredHook): Promise<void> {
  const client = await db.pool.connect();
  client.on('error', () => undefined);
  await client.query('BEGIN');
  await client.query(
    `INSERT INTO hooks (uuid, owner, created_at_ms, definition, status) VALUES ($1, $2, $3, $4, $5)`,
    [hook.uuid, hook.owner, hook.created_at_ms, JSON.stringify(hook.definition), JSON.stringify(hook.status)],
  );
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  await db.pool.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
  client.release(true);
}

function newHook(owner = 'alice'): StoredHook {
  return createHook(
    owner,
    randomUUID(),
    {
      name: 'feed test',
      version: '1',
      chain: 'stacks',
      network: 'mainnet',
      filters: { events: [{ type: 'stx_transfer' }] },
      action: { type: 'http_post', url: 'https://a.example.com/hook' },
    },
    Date.now(),
  );
}

/** A feed's watch that records every uuid it is told of. */
type Heard = {
  uuids: string[];
  /** Resolve once `uuid` has been heard `times` times; fail after `withinMs`. */
  waitFor(uuid: string, times?: number, withinMs?: number): Promise<void>;
  stop(): Promise<void>;
};

async function listen(source: Database | string, options: HookChangeFeedOptions = {}): Promise<Heard> {
  const uuids: string[] = [];
  const waiters = new Set<() => void>();
  const stop = await new PgHookChangeFeed(source, options).watch((uuid) => {
    uuids.push(uuid);
    for (const wake of waiters) wake();
  });
  const waitFor = (uuid: string, times = 1, withinMs = 1000): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        if (uuids.filter((heard) => heard === uuid).length < times) return;
        cleanup();
        resolve();
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`heard ${uuid} fewer than ${times} times within ${withinMs} ms`));
      }, withinMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  return { uuids, waitFor, stop };
}

/** Resolve with `promise`, or fail with `what` after `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// Mocha decides what to register when the module loads, so the server is asked here, once.
if (!(await postgresAvailable())) {
  describe('Postgres hook and account stores', () => {
    it(`need PostgreSQL at ${TEST_DATABASE_URL}, which did not answer (set STACKHOOKS_TEST_DATABASE_URL)`);
  });
} else {
  hookRepositoryContract('postgres', async () => {
    const fresh = await openFreshSchema();
    return {
      repo: new PgHookRepository(fresh.current()),
      reopen: async () => new PgHookRepository(await fresh.reopen()),
      crash: async () => new PgHookRepository(await fresh.crash()),
      crashWritingInsert: async (hook) => {
        await insertCutOff(fresh.current(), hook);
        return new PgHookRepository(await fresh.crash());
      },
      cleanup: fresh.cleanup,
    };
  });

  accountStoreContract('postgres', async () => {
    const fresh = await openFreshSchema();
    return {
      store: new PgAccountStore(fresh.current()),
      reopen: async () => new PgAccountStore(await fresh.reopen()),
      cleanup: fresh.cleanup,
    };
  });

  describe('PgHookRepository and PgHookChangeFeed across processes', () => {
    // Two pools on one schema stand for two stackhooks processes sharing the database.
    let db: Awaited<ReturnType<typeof openTestDatabase>>;
    let secondPool: Database;
    let first: PgHookRepository;
    let second: PgHookRepository;
    const cleanups: (() => Promise<void>)[] = [];

    beforeEach(async () => {
      db = await openTestDatabase('feed');
      secondPool = await openDatabase(db.url);
      first = new PgHookRepository(db);
      second = new PgHookRepository(secondPool);
    });
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
      await secondPool.close();
      await db.drop();
    });

    async function watching(source: Database | string, options?: HookChangeFeedOptions): Promise<Heard> {
      const heard = await listen(source, options);
      cleanups.push(heard.stop);
      return heard;
    }

    it('starts a hook inserted during a live step after that step, counting none of its blocks', async () => {
      // Another process's live step, held open: the progress row locked and moved on by 3 blocks.
      const step = await secondPool.pool.connect();
      try {
        await step.query('BEGIN');
        await step.query('SELECT evaluated FROM live_stream FOR UPDATE');
        await step.query('UPDATE live_stream SET evaluated = evaluated + 3, last_height = 103, last_at = 1');
        const hook = newHook();
        hook.status = { ...hook.status, enabled: true };
        const inserted = first.insert(hook, 10);
        // Let the insert reach the database (it waits on the step's lock when it should).
        for (let i = 0; i < 40; i++) {
          const { rows } = await db.pool.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'SELECT insert_hook%'`,
          );
          if (rows[0].n > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await step.query('COMMIT');
        expect(await inserted).to.deep.equal(hook);
        expect((await first.getByUuid(hook.uuid))?.status).to.include({
          evaluated_block_count: 0,
          status: 'new',
        });
      } finally {
        step.release();
      }
    });

    it('admits exactly maxPerOwner of 20 concurrent inserts by one owner from two processes', async () => {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, index) => (index % 2 ? first : second).insert(newHook('alice'), 10)),
      );
      expect(results.filter(Boolean)).to.have.length(10);
      expect((await first.list('alice', 0, 100)).total).to.equal(10);
      expect(await second.listAll()).to.have.length(10);
    });

    it('tells a feed of an insert, update and delete made by another process within a second', async () => {
      // Built from the second process's pool, as a composition root does.
      const heard = await watching(secondPool);
      const hook = newHook();

      await first.insert(hook, 10);
      await heard.waitFor(hook.uuid, 1);
      expect(await second.get('alice', hook.uuid)).to.deep.equal(hook);

      await first.update('alice', hook.uuid, (latest) => ({
        ...latest,
        status: { ...latest.status, enabled: true },
      }));
      await heard.waitFor(hook.uuid, 2);
      expect((await second.get('alice', hook.uuid))?.status.enabled).to.equal(true);

      await first.delete('alice', hook.uuid);
      await heard.waitFor(hook.uuid, 3);
      expect(await second.get('alice', hook.uuid)).to.equal(undefined);
      expect(heard.uuids).to.deep.equal([hook.uuid, hook.uuid, hook.uuid]);
    });

    it('tells a feed of every hook a bulk update enabled or disabled', async () => {
      const hooks = [newHook('alice'), newHook('bob'), newHook('alice')];
      for (const hook of hooks) await first.insert(hook, 10);
      const heard = await watching(db.url);
      await second.recordLiveStep(
        { blocks: 0, height: 0, at: 0 },
        hooks.map((hook) => hook.uuid),
        (latest) => ({ ...latest, status: { ...latest.status, enabled: !latest.status.enabled } }),
      );
      for (const hook of hooks) await heard.waitFor(hook.uuid);
    });

    it('tells a feed nothing of counter-only updates, which the live stream makes every block', async () => {
      const counted = newHook('alice');
      const marker = newHook('alice');
      await first.insert(counted, 10);
      const heard = await watching(db.url);
      await second.recordLiveStep({ blocks: 1, height: 1, at: 1 }, [counted.uuid], (latest) => ({
        ...latest,
        status: { ...latest.status, evaluated_block_count: latest.status.evaluated_block_count + 1 },
      }));
      // Notifications arrive in commit order: once the later insert is heard, the update would have been.
      await first.insert(marker, 10);
      await heard.waitFor(marker.uuid);
      expect(heard.uuids).to.deep.equal([marker.uuid]);
    });

    it('tells a feed on another schema nothing of this schema’s changes', async () => {
      const other = await openTestDatabase('feed');
      cleanups.push(() => other.drop());
      const heardHere = await watching(db.url);
      const heardThere = await watching(other);

      const hook = newHook();
      await first.insert(hook, 10);
      await first.update('alice', hook.uuid, (latest) => ({
        ...latest,
        status: { ...latest.status, enabled: true },
      }));
      await first.delete('alice', hook.uuid);
      await heardHere.waitFor(hook.uuid, 3);
      // Notifications reach listeners in commit order, so once the later change on the other schema is
      // heard there, anything this schema's changes could have sent it has arrived already.
      const elsewhere = newHook();
      await new PgHookRepository(other).insert(elsewhere, 10);
      await heardThere.waitFor(elsewhere.uuid);
      expect(heardThere.uuids).to.deep.equal([elsewhere.uuid]);
      expect(heardHere.uuids).to.not.include(elsewhere.uuid);
    });

    it('reconnects after its connection is terminated and reports later changes', async () => {
      const errors: Error[] = [];
      let reconnected!: () => void;
      const back = new Promise<void>((resolve) => (reconnected = resolve));
      const heard = await watching(db.url, {
        onError: (err) => errors.push(err),
        onReconnect: () => reconnected(),
        retryMs: 20,
      });

      const { rows } = await db.pool.query<{ terminated: boolean }>(
        `SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity WHERE application_name = $1`,
        [`stackhooks hook feed ${db.schema}`],
      );
      expect(rows).to.deep.equal([{ terminated: true }]);
      await within(back, 5000, 'the reconnect');
      expect(errors).to.have.length.greaterThan(0);

      const hook = newHook();
      await second.insert(hook, 10);
      await heard.waitFor(hook.uuid);
    });

    it('tells the watcher that changes may have been missed once it listens again after a cut', async () => {
      const target = new URL(TEST_DATABASE_URL);
      const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      cleanups.push(() => proxy.close());
      const heard: string[] = [];
      let missed = 0;
      const feed = new PgHookChangeFeed(proxy.via(db.url), { retryMs: 20, maxRetryMs: 100 });
      const stop = await feed.watch(
        (uuid) => heard.push(uuid),
        () => missed++,
      );
      cleanups.push(stop);
      await proxy.cut();
      const unheard = newHook();
      await first.insert(unheard, 10);
      expect(missed).to.equal(0);
      await proxy.mend();
      await within(
        (async () => {
          while (missed === 0) await new Promise((resolve) => setTimeout(resolve, 20));
        })(),
        5000,
        'the missed-changes call',
      );
      expect(heard).to.not.include(unheard.uuid);
      const later = newHook();
      await first.insert(later, 10);
      await within(
        (async () => {
          while (!heard.includes(later.uuid)) await new Promise((resolve) => setTimeout(resolve, 20));
        })(),
        2000,
        'the later change',
      );
      expect(missed).to.equal(1);
    });

    it('leaves no connection behind once stopped', async () => {
      const heard = await listen(db.url);
      await heard.stop();
      // The server ends a session shortly after the client says goodbye, not at once: poll briefly.
      let sessions = -1;
      for (let attempt = 0; attempt < 50 && sessions !== 0; attempt++) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20));
        const { rowCount } = await db.pool.query(
          `SELECT pid FROM pg_stat_activity WHERE application_name = $1`,
          [`stackhooks hook feed ${db.schema}`],
        );
        sessions = rowCount ?? 0;
      }
      expect(sessions).to.equal(0);
    });
  });
}
