import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { migrate } from '../../../adapters/store-postgres/migrate.js';
import { PgHookRepository } from '../../../adapters/store-postgres/index.js';
import { createHook } from '../../../core/hooks/lifecycle.js';
import type { StoredHook } from '../../../core/hooks/record.js';
import { openTestDatabase, postgresAvailable, TEST_DATABASE_URL } from '../../support/postgres.js';

function newHook(owner: string): StoredHook {
  return createHook(
    owner,
    randomUUID(),
    {
      name: 'count test',
      version: '1',
      chain: 'stacks',
      network: 'mainnet',
      filters: { events: [{ type: 'stx_transfer' }] },
      action: { type: 'http_post', url: 'https://a.example.com/hook' },
    },
    Date.now(),
  );
}

/** A row as a bulk load writes it, past the repository. */
const BULK_INSERT = `INSERT INTO hooks (uuid, owner, created_at_ms, definition, status)
  VALUES ($1, $2, $3, $4, $5)`;

async function bulkInsert(db: Awaited<ReturnType<typeof openTestDatabase>>, hook: StoredHook): Promise<void> {
  await db.pool.query(BULK_INSERT, [
    hook.uuid,
    hook.owner,
    hook.created_at_ms,
    JSON.stringify(hook.definition),
    JSON.stringify(hook.status),
  ]);
}

if (!(await postgresAvailable())) {
  describe('Postgres per-owner hook counts', () => {
    it(`need PostgreSQL at ${TEST_DATABASE_URL}, which did not answer (set STACKHOOKS_TEST_DATABASE_URL)`);
  });
} else {
  describe('Postgres per-owner hook counts', () => {
    let db: Awaited<ReturnType<typeof openTestDatabase>>;

    beforeEach(async () => {
      db = await openTestDatabase('counts');
    });
    afterEach(async () => {
      await db.drop();
    });

    it('counts hooks written past the repository toward the owner’s limit and its listing total', async () => {
      const repo = new PgHookRepository(db);
      await bulkInsert(db, newHook('alice'));
      await bulkInsert(db, newHook('alice'));
      expect(await repo.insert(newHook('alice'), 2)).to.equal(undefined);
      expect((await repo.list('alice', 0, 1)).total).to.equal(2);
      await db.pool.query(`DELETE FROM hooks WHERE owner = 'alice'`);
      expect(await repo.insert(newHook('alice'), 2)).to.not.equal(undefined);
      expect((await repo.list('alice', 5, 1)).total).to.equal(1);
    });

    it('counts the hooks a schema held before the counts existed when it migrates', async () => {
      // The schema as the previous version left it: hooks, and no count table.
      await db.pool.query(`DROP FUNCTION insert_hook; DROP TABLE hook_counts;
        DROP FUNCTION count_hook_change() CASCADE; DELETE FROM schema_migrations WHERE version IN (13, 15)`);
      for (const owner of ['alice', 'alice', 'alice', 'bob']) await bulkInsert(db, newHook(owner));
      expect(await migrate(db)).to.deep.equal([13, 15]);

      const repo = new PgHookRepository(db);
      expect(await repo.insert(newHook('alice'), 3)).to.equal(undefined);
      expect(await repo.insert(newHook('bob'), 3)).to.not.equal(undefined);
      expect((await repo.list('alice', 0, 10)).total).to.equal(3);
      expect((await repo.list('bob', 0, 10)).total).to.equal(2);
    });
  });
}
