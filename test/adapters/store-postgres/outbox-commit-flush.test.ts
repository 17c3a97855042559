import { expect } from 'chai';
import { openPgOutbox } from '../../../adapters/store-postgres/pg-outbox.js';
import { attemptAt, outgoing } from '../../contracts/delivery-queue-fixtures.js';
import { TEST_DATABASE_URL, openTestDatabase, postgresAvailable } from '../../support/postgres.js';

type TestDatabase = Awaited<ReturnType<typeof openTestDatabase>>;

const ROUNDS = 10;
/** In how many rounds an asynchronous commit is seen unflushed, at the least. */
const UNFLUSHED_AT_LEAST = 3;

/** Whether the server's log holds records not yet flushed to disk, as seen right after a write. */
async function logUnflushed(db: TestDatabase): Promise<boolean> {
  const { rows } = await db.pool.query<{ unflushed: boolean }>(
    'SELECT pg_current_wal_insert_lsn() > pg_current_wal_flush_lsn() AS unflushed',
  );
  return rows[0].unflushed;
}

if (!(await postgresAvailable())) {
  describe('PgOutbox commits of delivery', () => {
    it(`need PostgreSQL at ${TEST_DATABASE_URL}, which does not answer (set STACKHOOKS_TEST_DATABASE_URL)`);
  });
} else {
  // A synchronous commit returns only once its log records are flushed, so a read right after it
  // finds the log flushed unless something else wrote meanwhile; the server's log writer flushes
  // asynchronous commits within a fraction of a second, so most reads right after them do not.
  // A few rounds seen unflushed tell the two apart; other tests' writes meanwhile (files run in
  // parallel) can flush the log early or leave records of their own unflushed, so not all.
  describe('PgOutbox commits of delivery', () => {
    let db: TestDatabase;
    beforeEach(async () => {
      db = await openTestDatabase('flush');
    });
    afterEach(() => db.drop());

    it('returns from leasing and from recording attempts before the log is flushed', async () => {
      const outbox = openPgOutbox(db);
      let leasedUnflushed = 0;
      let recordedUnflushed = 0;
      for (let round = 0; round < ROUNDS; round++) {
        await outbox.enqueue([outgoing(`h${round}`)]);
        const [due] = await outbox.due(Date.now(), 1, new Set());
        if (await logUnflushed(db)) leasedUnflushed++;
        await outbox.recordAttempts([
          { id: due.payload.id, attempt: attemptAt(Date.now(), 200), outcome: { state: 'delivered' } },
        ]);
        if (await logUnflushed(db)) recordedUnflushed++;
      }
      expect(leasedUnflushed, 'leases seen unflushed').to.be.at.least(UNFLUSHED_AT_LEAST);
      expect(recordedUnflushed, 'attempt records seen unflushed').to.be.at.least(UNFLUSHED_AT_LEAST);
    });
  });
}
