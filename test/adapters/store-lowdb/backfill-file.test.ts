import { rm } from 'node:fs/promises';
import { FileBackfillStore } from '../../../adapters/store-lowdb/index.js';
import { backfillStoreContract } from '../../contracts/backfill-store.contract.js';
import { makeTempDir } from '../../support/temp-dir.js';

backfillStoreContract('embedded file', async () => {
  const dir = await makeTempDir();
  let store = await FileBackfillStore.open(dir);
  return {
    store,
    reopen: async () => {
      await store.flush();
      store = await FileBackfillStore.open(dir);
      return store;
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});
