import { chmod, mkdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Low } from 'lowdb';
import type { StoredHook } from '../../core/hooks/record.js';
import type { DiskSpaceReport } from '../../core/storage/write-failure.js';
import { CHANGE_JOURNAL_FILE_NAME, ChangeJournal } from './change-journal.js';
import { CoalescedWrites } from './coalesced-writes.js';
import { DurableJsonFile, syncFolderOf } from './durable-json-file.js';
import { applyEntry, entryOf, forgetTouched, type JournalEntry } from './journal-entry.js';
import type { LiveJournal } from './live-journal.js';
import { LIVE_JOURNAL_FILE_NAME, replayJournal, type LiveJournalDocument } from './live-journal.js';
import { LIVE_LOG_FILE_NAME, LiveLog } from './live-log.js';
import { replayLiveLines, stepLine } from './live-log-line.js';
import { emptyDocument, toStoreSnapshot, toStoreState } from './store-document.js';
import type { StoreDocument, StoreSnapshot, StoreState } from './store-document.js';

/** The file name inside the data folder. */
export const STORE_FILE_NAME = 'stackhooks.json';

/** Inversify token for the shared file, so both stores can be bound to one instance. */
export const STORE_FILE = Symbol.for('stackhooks.lowdb.StoreFile');

/** What a change reports: its result for the caller, and whether it touched the state (else no write). */
export type ChangeOutcome<T> = { result: T; changed: boolean };

/**
 * What a live step reports: its result, the hooks it wrote as the state now holds them (undefined
 * when it changed nothing), and the uuids of those whose definition it changed (a step changes
 * status and delivery state, as a rule).
 */
export type LiveChangeOutcome<T> = {
  result: T;
  hooks: readonly StoredHook[] | undefined;
  definitions?: ReadonlySet<string>;
};

/** How to open the store file. */
export type StoreFileOptions = {
  /** Told of a full disk and of the next write that succeeds. */
  space?: DiskSpaceReport;
  /** Bytes the change journal may reach before a compaction, at least (default 4 MiB). */
  compactAfterBytes?: number;
  /** Bytes the live log may grow by before it is rewritten as one snapshot line, at least (default 4 MiB). */
  liveLogRewriteBytes?: number;
};

/** Hooks the side file may hold before the main file takes them in: at least this many... */
const JOURNAL_MIN_FOLD = 1_000;
/** ...or this share of all hooks, so folding costs a bounded fraction of a block's work. */
const JOURNAL_FOLD_SHARE = 1 / 8;
/** The change journal may grow to this many bytes before the main file takes it in... */
export const CHANGES_MIN_FOLD_BYTES = 4 << 20;
/** ...or this share of the main file, so compaction costs a bounded multiple of the changes. */
const CHANGES_FOLD_SHARE = 1 / 4;

/**
 * The lowdb document that the hook repository and account store share (the store of record), with
 * two journals beside it. Changes are applied to the in-memory state synchronously, so no two can
 * interleave, and a change's promise settles once a file that holds it is on disk:
 * - hook and account changes append a line to the change journal (`ChangeJournal`), so a
 *   registration costs its own size, not the store's;
 * - live steps append a line to the live log (`LiveLog`): the progress, and the status and delivery
 *   state of the hooks they wrote.
 * The main file takes both in when a journal has grown (compaction), serialized in slices between
 * turns of the event loop, and when the store closes; at open the journals' later entries are
 * replayed over it.
 */
export class StoreFile {
  readonly #main: CoalescedWrites;
  readonly #liveLog: LiveLog;
  readonly #live: LiveJournal;
  readonly #changes: ChangeJournal;
  /** The main file's size after its last write, which sets how far the change journal may grow. */
  #mainBytes: number;
  /** The last live step and change the main file holds. */
  #mainHolds: { live: number; changes: number };
  readonly #compactAfterBytes: number;
  #compacting = false;
  #closed = false;

  private constructor(
    /** The file's path, for messages. */
    readonly path: string,
    /** The live state; only `change` and `changeLive` callbacks may modify it. */
    readonly state: StoreState,
    files: {
      main: DurableJsonFile<StoreSnapshot>;
      mainBytes: number;
      mainHolds: { live: number; changes: number };
      liveLog: LiveLog;
      live: LiveJournal;
      changes: ChangeJournal;
    },
    options: StoreFileOptions,
  ) {
    const { space } = options;
    const { main, liveLog, live, changes } = files;
    this.#compactAfterBytes = options.compactAfterBytes ?? CHANGES_MIN_FOLD_BYTES;
    this.#live = live;
    this.#liveLog = liveLog;
    this.#changes = changes;
    this.#mainBytes = files.mainBytes;
    this.#mainHolds = files.mainHolds;
    this.#main = new CoalescedWrites(
      async () => {
        const liveSeq = live.seq;
        const changeSeq = changes.seq;
        // A temporary file fsynced and renamed over the old: a crash or power loss at any moment leaves
        // either the previous or this complete file, and the journals hold whatever it lacks.
        await main.write(toStoreSnapshot(state, liveSeq, changeSeq));
        live.settle(liveSeq);
        this.#mainHolds = { live: liveSeq, changes: changeSeq };
        this.#mainBytes = (await stat(path)).size;
        // Not awaited: the main file is what this write promised. A failed rewrite stays pending in
        // the journal and surfaces at its next append or flush.
        changes.fold(changeSeq).catch(() => undefined);
      },
      path,
      space,
    );
  }

  /** How many change journal appends have finished; far fewer than changes when appends coalesce. */
  get writes(): number {
    return this.#changes.writes;
  }

  /**
   * Open (creating the folder, and an empty main file when there is none) `{dataDir}/stackhooks.json`
   * and replay its journals.
   */
  static async open(dataDir: string, options: StoreFileOptions = {}): Promise<StoreFile> {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    const path = join(dataDir, STORE_FILE_NAME);
    const sidePath = join(dataDir, LIVE_JOURNAL_FILE_NAME);
    const logPath = join(dataDir, LIVE_LOG_FILE_NAME);
    const changesPath = join(dataDir, CHANGE_JOURNAL_FILE_NAME);
    // Files written by an earlier version may be readable by others; every write makes them 0600.
    for (const file of [path, sidePath, logPath, changesPath]) await keepPrivate(file);
    const main = new DurableJsonFile<StoreSnapshot>(path);
    const low = new Low<StoreDocument>(new DurableJsonFile<StoreDocument>(path), emptyDocument());
    await readOrRefuse(low, path);
    const state = toStoreState(low.data, path);
    const { journal: changes, entries } = await ChangeJournal.open(
      changesPath,
      low.data.journal_seq ?? 0,
      options.space,
    );
    let liveLog: LiveLog | undefined;
    try {
      const writtenAfter = replayChanges(state, entries, changesPath);
      const mainSeq = low.data.live_seq ?? 0;
      const side = new Low<LiveJournalDocument | null>(
        new DurableJsonFile<LiveJournalDocument | null>(sidePath),
        null,
      );
      await readOrRefuse(side, sidePath);
      const live = replayJournal(state, mainSeq, side.data, sidePath, writtenAfter);
      const opened = await LiveLog.open(logPath, () => live.snapshot(state), options);
      liveLog = opened.log;
      const logged = replayLiveLines(state, mainSeq, opened.lines, logPath, writtenAfter);
      live.replayed(
        opened.lines.reduce((last, line) => Math.max(last, line.seq), mainSeq),
        logged,
      );
      forgetTouched(state);
      // A side file an earlier version wrote: its steps go into the live log, then it goes.
      if (side.data !== null) await liveLog.rewrite();
      await unlink(sidePath).then(
        () => syncFolderOf(sidePath),
        (err: NodeJS.ErrnoException) => {
          if (err.code !== 'ENOENT') throw err;
        },
      );
      // The store of record exists from the first open on, so every reader finds a lowdb document.
      let mainHolds = { live: low.data.live_seq ?? 0, changes: low.data.journal_seq ?? 0 };
      const mainBytes = await stat(path).then(
        (stats) => stats.size,
        async () => {
          await main.write(toStoreSnapshot(state, live.seq, changes.seq));
          mainHolds = { live: live.seq, changes: changes.seq };
          return (await stat(path)).size;
        },
      );
      const files = { main, mainBytes, mainHolds, liveLog, live, changes };
      return new StoreFile(path, state, files, options);
    } catch (err) {
      await changes.close().catch(() => undefined);
      await liveLog?.close().catch(() => undefined);
      throw err;
    }
  }

  /**
   * Run `apply` against the latest state as one atomic step and resolve once the change journal holds
   * it. `apply` must be synchronous and must throw before modifying anything, so that a failure
   * changes nothing.
   */
  async change<T>(apply: (state: StoreState) => ChangeOutcome<T>): Promise<T> {
    if (this.#closed) throw new Error(`the store ${this.path} is closed`);
    // After a failed append (a full disk) what waits is written first: while that still fails, the
    // change is refused (a 503) before it is applied, so only the change that met the failure may
    // take effect later without its caller being told. Otherwise the change applies at once.
    if (this.#changes.failing) await this.#changes.flush();
    forgetTouched(this.state);
    const { result, changed } = apply(this.state);
    const entry = entryOf(this.state, this.#changes.next(), this.#live.seq);
    if (!changed || entry === undefined) return result;
    const appended = this.#changes.append(entry);
    if (
      this.#changes.unfoldedBytes > Math.max(this.#compactAfterBytes, this.#mainBytes * CHANGES_FOLD_SHARE)
    ) {
      this.#compact();
    }
    await appended;
    return result;
  }

  /**
   * A live step: like `change`, but on disk once the live log holds the progress and what the step
   * wrote of the hooks `apply` names; the main file takes them in later.
   */
  async changeLive<T>(apply: (state: StoreState) => LiveChangeOutcome<T>): Promise<T> {
    if (this.#closed) throw new Error(`the store ${this.path} is closed`);
    if (this.#liveLog.failing) await this.#liveLog.flush();
    const { result, hooks, definitions = new Set<string>() } = apply(this.state);
    // The live log carries these hooks; the change journal must not take them for a change's.
    forgetTouched(this.state);
    if (hooks === undefined) return result;
    this.#live.record(hooks.map((hook) => hook.uuid));
    // Serialized now: the objects are the state's, and a later change replaces them.
    const written = this.#liveLog.append(stepLine(this.state, this.#live.seq, hooks, definitions));
    if (this.#live.size > Math.max(JOURNAL_MIN_FOLD, this.state.hooks.size * JOURNAL_FOLD_SHARE)) {
      this.#compact();
    }
    await written;
    return result;
  }

  /** Resolve once every change applied so far is on disk; rejects when a write fails. */
  async flush(): Promise<void> {
    await this.#liveLog.flush();
    await this.#changes.flush();
    await this.#main.flush();
    await this.#changes.flush();
  }

  /**
   * Flush, take both journals into the main file (so a clean stop leaves one lowdb document that an
   * earlier version reads whole), then refuse every later change. Reads keep working on the last state.
   */
  async close(): Promise<void> {
    this.#closed = true;
    try {
      await this.flush();
      const holds = this.#mainHolds;
      if (holds.live < this.#live.seq || holds.changes < this.#changes.seq) await this.#main.persist();
    } finally {
      try {
        await this.#changes.close();
      } finally {
        await this.#liveLog.close();
      }
    }
  }

  /**
   * Write the main file in the background, one compaction at a time. Not awaited: the journals are
   * what make each change durable; a failed compaction is tried again when one is next due.
   */
  #compact(): void {
    if (this.#compacting) return;
    this.#compacting = true;
    this.#main
      .persist()
      .catch(() => undefined)
      .finally(() => (this.#compacting = false));
  }
}

/**
 * Replay the change journal's entries over the main file's state; returns, per hook written, the
 * last live step before the change that wrote it last, for ordering against the live side file.
 */
function replayChanges(
  state: StoreState,
  entries: readonly JournalEntry[],
  file: string,
): Map<string, number> {
  const writtenAfter = new Map<string, number>();
  for (const entry of entries) {
    try {
      applyEntry(state, entry);
    } catch (err) {
      throw new Error(
        `the change journal ${file} does not fit the store file (entry ${entry.seq}: ` +
          `${(err as Error).message}); both were left untouched`,
        { cause: err },
      );
    }
    for (const { hook } of entry.hooks ?? []) writtenAfter.set(hook.uuid, entry.live);
  }
  return writtenAfter;
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
