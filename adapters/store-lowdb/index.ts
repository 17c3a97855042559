import type { AccountStore } from '../../core/ports/account-store.js';
import type { HookRepository } from '../../core/ports/hook-repository.js';
import { LowdbAccountStore } from './account-store.js';
import { LowdbHookRepository } from './hook-repository.js';
import { StoreFile, type StoreFileOptions } from './store-file.js';

export { LowdbAccountStore } from './account-store.js';
export { BACKFILL_FILE_NAME, FileBackfillStore } from './backfill-file.js';
export { LowdbHookRepository } from './hook-repository.js';
export { STORE_FILE, STORE_FILE_NAME, StoreFile, type StoreFileOptions } from './store-file.js';
export { CHANGE_JOURNAL_FILE_NAME } from './change-journal.js';

/** The embedded store: both ports over one JSON file, plus the means to wait for and end its writes. */
export type LowdbStore = {
  hooks: HookRepository;
  accounts: AccountStore;
  /** Resolve once every change made so far is on disk. */
  flush(): Promise<void>;
  /** Flush, then refuse every later change. */
  close(): Promise<void>;
};

/**
 * Open the embedded store in `{dataDir}/stackhooks.json`, creating the folder; a corrupt file is
 * refused.
 */
export async function openLowdbStore(dataDir: string, options: StoreFileOptions = {}): Promise<LowdbStore> {
  const file = await StoreFile.open(dataDir, options);
  return {
    hooks: new LowdbHookRepository(file),
    accounts: new LowdbAccountStore(file),
    flush: () => file.flush(),
    close: () => file.close(),
  };
}
