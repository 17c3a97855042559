import { openDatabase, PgEventLog } from '../../../adapters/store-postgres/index.js';
import { eventLogContract } from '../../contracts/event-log.contract.js';
import { openTestDatabase, postgresAvailable, TEST_DATABASE_URL } from '../../support/postgres.js';

if (await postgresAvailable()) {
  eventLogContract('PgEventLog', async () => {
    const db = await openTestDatabase('elc');
    const pools = [db];
    return {
      log: await PgEventLog.open(db),
      async reopen() {
        const again = await openDatabase(db.url);
        pools.push({ ...again, url: db.url, drop: async () => again.close() });
        return PgEventLog.open(again);
      },
      async cleanup() {
        for (const pool of pools.slice(1)) await pool.drop();
        await db.drop();
      },
    };
  });
} else {
  describe('EventLog contract: PgEventLog', () => {
    it(`needs PostgreSQL at ${TEST_DATABASE_URL}, which did not answer (set STACKHOOKS_TEST_DATABASE_URL)`);
  });
}
