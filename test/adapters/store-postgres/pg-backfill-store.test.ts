import { PgBackfillStore, openDatabase } from '../../../adapters/store-postgres/index.js';
import { backfillStoreContract } from '../../contracts/backfill-store.contract.js';
import { openTestDatabase } from '../../support/postgres.js';

backfillStoreContract('postgres', async () => {
  const db = await openTestDatabase('bf');
  const opened = [db];
  return {
    store: new PgBackfillStore(db),
    reopen: async () => {
      const again = await openDatabase(db.url);
      opened.push({ ...again, url: db.url, drop: async () => again.close() });
      return new PgBackfillStore(again);
    },
    cleanup: async () => {
      for (const one of opened.slice(1)) await one.drop();
      await db.drop();
    },
  };
});
