import { chmod, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Low } from 'lowdb';
import type { DiskSpaceReport } from '../../core/storage/write-failure.js';
import { CoalescedWrites } from './coalesced-writes.js';
import { DurableJsonFile } from './durable-json-file.js';
import type { LiveJournal } from './live-journal.js';
import { LIVE_JOURNAL_FILE_NAME, replayJournal, type LiveJournalDocument } from './live-journal.js';
import { emptyDocument, toStoreDocument, toStoreState } from './store-document.js';
import type { StoreDocument, StoreState } from './store-document.js';

/** The file name inside the data folder. */
export const STORE_FILE_NAME = 'stackhooks.json';

/** Inversify token for the shared file, so both stores can be bound to one instance. */
export const STORE_FILE = Symbol.for('stackhooks.lowdb.StoreFile');

/** What a change reports: its result for the caller, and whether it touched the state (else no write). */
export type ChangeOutcome<T> = { result: T; changed: boolean };

/** What a live step reports: its result, and the hooks it wrote (undefined when it changed nothing). */
export type LiveChangeOutcome<T> = { result: T; hooks: readonly string[] | undefined };

/** Hooks the side file may hold before a main-file write takes them in: at least this many... */
const JOURNAL_MIN_FOLD = 1_000;
/** ...or this share of all hooks, so folding costs a bounded fraction of a block's work. */
const JOURNAL_FOLD_SHARE = 1 / 8;

/**
 * The one JSON file that the lowdb hook repository and account store share, plus a small side file
 * for the live stream. Changes are applied to the in-memory state synchronously, so no two can
 * interleave, and a change's promise settles once a file write that contains it has finished.
 * Writes of a file never overlap: changes that arrive while one is in flight are all carried by the
 * next single write. Live steps write only the side file (the progress and the hooks they changed),
 * so a block does not rewrite every hook; the main file takes them in when it is next written, or
 * when the side file has grown (`JOURNAL_FOLD_SHARE`).
 */
export class StoreFile {
  readonly #main: CoalescedWrites;
  readonly #side: CoalescedWrites;
  readonly #journal: LiveJournal;
  #closed = false;

  private constructor(
    /** The file's path, for messages. */
    readonly path: string,
    /** The live state; only `change` and `changeLive` callbacks may modify it. */
    readonly state: StoreState,
    low: Low<StoreDocument>,
    side: Low<LiveJournalDocument | null>,
    sidePath: string,
    journal: LiveJournal,
    space: DiskSpaceReport | undefined,
  ) {
    this.#journal = journal;
    this.#main = new CoalescedWrites(
      () => {
        const seq = journal.seq;
        low.data = toStoreDocument(state, seq);
        // A temporary file fsynced and renamed over the old: a crash or power loss at any moment leaves
        // either the previous or this complete file.
        return low.write().then(() => journal.settle(seq));
      },
      path,
      space,
    );
    this.#side = new CoalescedWrites(
      () => {
        side.data = journal.toDocument(state);
        return side.write();
      },
      sidePath,
      space,
    );
  }

  /** How many main-file writes have finished; far fewer than changes when writes coalesce. */
  get writes(): number {
    return this.#main.writes;
  }

  /**
   * Open (creating the folder, not the files) `{dataDir}/stackhooks.json`; a missing file is an
   * empty store. `space` is told of a full disk and of the next write that succeeds.
   */
  static async open(dataDir: string, options: { space?: DiskSpaceReport } = {}): Promise<StoreFile> {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    const path = join(dataDir, STORE_FILE_NAME);
    // Files written by an earlier version may be readable by others; every write makes them 0600.
    await keepPrivate(path);
    await keepPrivate(join(dataDir, LIVE_JOURNAL_FILE_NAME));
    const low = new Low<StoreDocument>(new DurableJsonFile<StoreDocument>(path), emptyDocument());
    await readOrRefuse(low, path);
    const state = toStoreState(low.data, path);
    const sidePath = join(dataDir, LIVE_JOURNAL_FILE_NAME);
    const side = new Low<LiveJournalDocument | null>(
      new DurableJsonFile<LiveJournalDocument | null>(sidePath),
      null,
    );
    await readOrRefuse(side, sidePath);
    const journal = replayJournal(state, low.data.live_seq ?? 0, side.data, sidePath);
    return new StoreFile(path, state, low, side, sidePath, journal, options.space);
  }

  /**
   * Run `apply` against the latest state as one atomic step and resolve once it is on disk. `apply`
   * must be synchronous and must throw before modifying anything, so that a failure changes nothing.
   */
  async change<T>(apply: (state: StoreState) => ChangeOutcome<T>): Promise<T> {
    if (this.#closed) throw new Error(`the store ${this.path} is closed`);
    // After a failed write (a full disk) what waits is written first: while that still fails, the
    // change is refused (a 503) before it is applied, so only the change that met the failure may
    // take effect later without its caller being told. Otherwise the change applies at once.
    if (this.#main.failing) await this.#main.flush();
    const { result, changed } = apply(this.state);
    if (changed) await this.#main.persist();
    return result;
  }

  /**
   * A live step: like `change`, but on disk once the side file holds the progress and the hooks
   * `apply` names as written; the main file takes them in later.
   */
  async changeLive<T>(apply: (state: StoreState) => LiveChangeOutcome<T>): Promise<T> {
    if (this.#closed) throw new Error(`the store ${this.path} is closed`);
    if (this.#side.failing) await this.#side.flush();
    const { result, hooks } = apply(this.state);
    if (hooks === undefined) return result;
    this.#journal.record(hooks);
    if (this.#journal.size > Math.max(JOURNAL_MIN_FOLD, this.state.hooks.size * JOURNAL_FOLD_SHARE)) {
      // Not awaited: the side file is what makes this step durable. A failed fold stays pending and
      // surfaces at the next change or flush.
      this.#main.persist().catch(() => undefined);
    }
    await this.#side.persist();
    return result;
  }

  /** Resolve once every change applied so far is on disk; rejects when a write fails. */
  async flush(): Promise<void> {
    await this.#side.flush();
    await this.#main.flush();
  }

  /** Flush, then refuse every later change. Reads keep working on the last state. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.flush();
  }
}

async function keepPrivate(path: string): Promise<void> {
  await chmod(path, 0o600).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
}

/** Read a file into `low`, refusing (and leaving untouched) one that cannot be read. */
async function readOrRefuse<T>(low: Low<T>, path: string): Promise<void> {
  try {
    await low.read();
  } catch (err) {
    throw new Error(
      `cannot read the store file ${path}: ${(err as Error).message}; it was left untouched: ` +
        'repair it or move it away to start with an empty store',
      { cause: err },
    );
  }
}
