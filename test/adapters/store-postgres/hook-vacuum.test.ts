import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { HookVacuum } from '../../../adapters/store-postgres/hook-vacuum.js';
import { PgHookRepository } from '../../../adapters/store-postgres/index.js';
import { createHook } from '../../../core/hooks/lifecycle.js';
import { definition } from '../../contracts/hook-repository-fixtures.js';
import { openDatabaseOfItsOwn, postgresAvailable, TEST_DATABASE_URL } from '../../support/postgres.js';

type TestDatabase = Awaited<ReturnType<typeof openDatabaseOfItsOwn>>;

/** Insert `count` hooks through the repository, fewer than make its own vacuum due. */
async function insertHooks(db: TestDatabase, count: number): Promise<void> {
  const repo = new PgHookRepository(db);
  for (let i = 0; i < count; i++) {
    const hook = createHook(
      'alice',
      randomUUID(),
      definition('https://a.example.com/hook'),
      1_700_000_000_000 + i,
    );
    expect(await repo.insert(hook, 1_000)).to.deep.equal(hook);
  }
}

/** The hooks table's manual vacuums so far, and its pages the last one marked all-visible. */
async function vacuumState(db: TestDatabase): Promise<{ vacuums: number; allVisible: number }> {
  const { rows } = await db.pool.query<{ vacuums: string; all_visible: number }>(
    `SELECT s.vacuum_count AS vacuums, c.relallvisible AS all_visible
     FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid WHERE s.relid = 'hooks'::regclass`,
  );
  return { vacuums: Number(rows[0].vacuums), allVisible: rows[0].all_visible };
}

if (!(await postgresAvailable())) {
  describe('Postgres hook vacuum', () => {
    it(`need PostgreSQL at ${TEST_DATABASE_URL}, which did not answer (set STACKHOOKS_TEST_DATABASE_URL)`);
  });
} else {
  describe('Postgres hook vacuum', () => {
    let db: TestDatabase;

    // A database of its own: a snapshot another suite's session holds in database `test` would keep
    // VACUUM from marking any page all-visible.
    beforeEach(async () => {
      db = await openDatabaseOfItsOwn('hookvac');
    });
    afterEach(async () => {
      await db.drop();
    });

    it('marks the hooks’ pages all-visible once the rows written reach the threshold, not before', async () => {
      await insertHooks(db, 60);
      const vacuum = new HookVacuum(db, 60, 60_000);
      vacuum.written(59);
      await vacuum.settled();
      expect(await vacuumState(db)).to.deep.equal({ vacuums: 0, allVisible: 0 });
      vacuum.written(1);
      await vacuum.settled();
      const state = await vacuumState(db);
      expect(state.vacuums).to.equal(1);
      expect(state.allVisible).to.be.greaterThan(0);
    });

    it('vacuums at most once an interval, however many rows are written meanwhile', async () => {
      await insertHooks(db, 5);
      const vacuum = new HookVacuum(db, 1, 60_000);
      vacuum.written(1);
      await vacuum.settled();
      vacuum.written(1_000);
      await vacuum.settled();
      expect((await vacuumState(db)).vacuums).to.equal(1);
    });
  });
}
