import { expect } from 'chai';
import { migrate } from '../../../adapters/store-postgres/migrate.js';
import { openPgOutbox } from '../../../adapters/store-postgres/pg-outbox.js';
import { T0, outgoing } from '../../contracts/delivery-queue.contract.js';
import { TEST_DATABASE_URL, openTestDatabase, postgresAvailable } from '../../support/postgres.js';

/** The outbox's text key columns, which compare byte by byte from migration 020 on. */
const KEY_COLUMNS = [
  ['outbox_payloads', 'id'],
  ['outbox_payloads', 'hook_uuid'],
  ['outbox_queues', 'hook_uuid'],
  ['outbox_queues', 'head_id'],
  ['outbox_queues', 'lease_payload'],
  ['outbox_sent_blocks', 'hook_uuid'],
  ['outbox_sent_blocks', 'block_hash'],
] as const;

if (!(await postgresAvailable())) {
  describe('PgOutbox keys', () => {
    it(`need PostgreSQL at ${TEST_DATABASE_URL}, which does not answer (set STACKHOOKS_TEST_DATABASE_URL)`);
  });
} else {
  describe('PgOutbox keys', () => {
    let db: Awaited<ReturnType<typeof openTestDatabase>>;
    beforeEach(async () => {
      db = await openTestDatabase('keys');
    });
    afterEach(() => db.drop());

    const collations = async () => {
      const { rows } = await db.pool.query<{
        table_name: string;
        column_name: string;
        collation_name: string | null;
      }>(
        `SELECT table_name, column_name, collation_name FROM information_schema.columns
         WHERE table_schema = current_schema() AND table_name LIKE 'outbox_%'`,
      );
      return KEY_COLUMNS.map(([table, column]) => {
        const row = rows.find((r) => r.table_name === table && r.column_name === column);
        return row?.collation_name ?? null;
      });
    };

    it('keeps a queued outbox whole through the migration that compares its keys byte by byte', async () => {
      // The schema as the previous version left it: every key in the database's default collation.
      await db.pool.query(
        `${KEY_COLUMNS.map(([table, column]) => `ALTER TABLE ${table} ALTER COLUMN ${column} TYPE text COLLATE "default";`).join('\n')}
         DELETE FROM schema_migrations WHERE version = 20`,
      );
      expect(await collations()).to.deep.equal(KEY_COLUMNS.map(() => null));
      const before = openPgOutbox(db);
      const block = { index: 1, hash: '0xb1', tx_indexes: [0] };
      const [a, b, c] = [
        outgoing('h2', { apply: [block] }),
        outgoing('h1', { apply: [block] }),
        outgoing('h1'),
      ];
      await before.enqueue([a, b, c]);

      expect(await migrate(db)).to.deep.equal([20]);
      expect(await collations()).to.deep.equal(KEY_COLUMNS.map(() => 'C'));
      const after = openPgOutbox(db);
      expect((await after.due(T0, 10, new Set())).map((d) => d.payload.id).sort()).to.deep.equal(
        [a.id, b.id].sort(),
      );
      expect([...(await after.sentApplies(['0xb1'])).keys()].sort()).to.deep.equal(['h1', 'h2']);
      await after.enqueue([c, outgoing('h2')]);
      expect((await after.list('h1', { offset: 0, limit: 10 })).total).to.equal(2);
      expect((await after.list('h2', { offset: 0, limit: 10 })).total).to.equal(2);
    });
  });
}
