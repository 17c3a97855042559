import { appendFile, cp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CHANGE_JOURNAL_FILE_NAME,
  openLowdbStore,
  type LowdbStore,
  type StoreFileOptions,
} from '../../../adapters/store-lowdb/index.js';
import type { StoredHook } from '../../../core/hooks/record.js';
import { makeTempDir } from '../../support/temp-dir.js';

/**
 * Crash images of a lowdb data folder: every acknowledged write is fsynced before it is acknowledged,
 * so a copy of the folder's files taken while the store runs is what a crash at that moment leaves
 * (its process killed, nothing closed, no compaction finished). Each image is opened as a store of
 * its own, the next crash is taken from it, and `cleanup` closes and removes them all.
 */
export class CrashImages {
  #latest: string;
  readonly #opened: { dir: string; store: LowdbStore }[] = [];

  constructor(dataDir: string) {
    this.#latest = dataDir;
  }

  /** The folder as a crash now leaves it, opened. */
  async crash(): Promise<LowdbStore> {
    return this.#open(await this.#copy());
  }

  /** The folder as a crash leaves it in the middle of appending an insert of `hook`, opened. */
  async crashWritingInsert(hook: StoredHook): Promise<LowdbStore> {
    const line = JSON.stringify({ seq: Number.MAX_SAFE_INTEGER, live: 0, hooks: [{ hook, base: 0 }] });
    return this.crashEdited((dir) =>
      appendFile(join(dir, CHANGE_JOURNAL_FILE_NAME), line.slice(0, line.length >> 1)),
    );
  }

  /** The folder as a crash now leaves it, with `edit` made to the copy (say, a torn append), opened. */
  async crashEdited(edit: (dir: string) => Promise<void>, options?: StoreFileOptions): Promise<LowdbStore> {
    const dir = await this.#copy();
    await edit(dir);
    return this.#open(dir, options);
  }

  /** Close every image's store and remove its folder. */
  async cleanup(): Promise<void> {
    for (const { dir, store } of this.#opened.splice(0)) {
      await store.close().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    }
  }

  async #copy(): Promise<string> {
    const dir = await makeTempDir('stackhooks-crash-image-');
    // The lock file and temporaries are left behind: a crash leaves no lock held, and a temporary
    // is never read.
    await cp(this.#latest, dir, {
      recursive: true,
      filter: (source) => !source.endsWith('.tmp') && !source.endsWith('.lock'),
    });
    return dir;
  }

  async #open(dir: string, options?: StoreFileOptions): Promise<LowdbStore> {
    const store = await openLowdbStore(dir, options).catch(async (err: unknown) => {
      // An image the store refused is removed all the same.
      await rm(dir, { recursive: true, force: true });
      throw err;
    });
    this.#opened.push({ dir, store });
    this.#latest = dir;
    return store;
  }
}
