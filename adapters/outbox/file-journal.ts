import { mkdir, open, readdir, rename, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { writeAll } from '../../core/storage/write-all.js';
import {
  diskWriteFailure,
  isFileSystemError,
  type DiskSpaceReport,
} from '../../core/storage/write-failure.js';
import { FileRemovals } from './file-removals.js';
import { syncDir } from './sync-dir.js';
import { Compaction, type CompactionWaiter } from './journal-compaction.js';
import { applyEntry, frameEntry, type JournalEntry } from './journal-entry.js';
import { readJournalFile } from './journal-file.js';
import type { OutboxJournal } from './journaled-outbox.js';
import type { OutboxState } from './outbox-state.js';
import type { PayloadSegments } from './payload-segments.js';
import { StateSnapshot } from './state-snapshot.js';

/** A commit waiting to be written; `compact`: it also waits for a compaction. */
type Waiter = CompactionWaiter & { framed: Buffer[]; compact: boolean };

/**
 * The compaction under way: `busy` while its snapshot is being written; `covered`, the owed
 * records at its start that it holds (not to be written after it).
 */
type RunningCompaction = { job: Compaction; busy: boolean; covered: number };

/** How a journal compacts, and what it works with. */
export type FileJournalOptions = {
  /** Compact once the journal is past this size and has doubled since it was last written whole. */
  compactAtBytes: number;
  /** The segments of records the journal names (deleted as compactions let go of them). */
  segments?: readonly PayloadSegments[];
  /** Told of a full disk and of the next write that succeeds. */
  space?: DiskSpaceReport;
  /** A snapshot is encoded and written in slices about this big (default `SNAPSHOT_SLICE_BYTES`). */
  sliceBytes?: number;
  /** Takes apart old generations in the background (pass the segments' own, so one runs at a time). */
  removals?: FileRemovals;
};

const JOURNAL_NAME = /^journal-(\d{12})\.log$/;

const STORE = 'outbox';

const journalName = (generation: number): string => `journal-${String(generation).padStart(12, '0')}.log`;

/**
 * The file outbox's journal of checksummed records (`journal-<generation>.log`). Every change is
 * applied in memory, then appended; a commit resolves after fsync, and commits that arrive together
 * share one write and one fsync (group commit). The payload records the changes name are written
 * and fsynced first (`PayloadSegments`), so the journal never points at bytes a crash could lose.
 * Compaction writes the live state as the next generation and renames it into place, so the newest
 * generation is always complete, then deletes the payload segments that no longer hold a record
 * the snapshot names. It takes a snapshot at one instant (a copy of references) and writes it a
 * slice at a time while commits go on (`Compaction`), so it never holds the event loop for long. A write or fsync that fails (a full disk) rejects its commits with
 * `storeUnavailable` and cuts the journal back to its last good record; the memory already holds
 * those changes, so their records are owed and go out first with the next commit that succeeds (a
 * refused change may still take effect: deliveries are at-least-once). Anything else that fails
 * (a compaction that cannot finish switching files) refuses further changes until reopened.
 */
export class FileJournal implements OutboxJournal {
  private waiting: Waiter[] = [];
  private flushing: Promise<void> | undefined;
  private compactWanted = false;
  private failure: unknown;
  private closed = false;
  /** Records of commits that failed to write: the memory holds their changes, so they go out next. */
  private owed: Buffer[] = [];
  /** A failed write may have left bytes past `size` that are still to be cut off. */
  private torn = false;
  /** The last compaction could not be written: the next waits for the journal to double. */
  private compactFailed = false;
  private compaction: RunningCompaction | undefined;
  private readonly compactAtBytes: number;
  private readonly segments: readonly PayloadSegments[];
  private readonly space: DiskSpaceReport | undefined;
  private readonly sliceBytes: number | undefined;
  private readonly removals: FileRemovals;

  private constructor(
    private readonly dir: string,
    private readonly state: OutboxState,
    private handle: FileHandle,
    private generation: number,
    private size: number,
    /** The journal's size right after the last compaction. */
    private compactedSize: number,
    options: FileJournalOptions,
  ) {
    this.compactAtBytes = options.compactAtBytes;
    this.segments = options.segments ?? [];
    this.space = options.space;
    this.sliceBytes = options.sliceBytes;
    this.removals = options.removals ?? new FileRemovals();
  }

  /**
   * Open (or create) the journal in `dir`, replaying the newest generation into `state` and cutting
   * off a torn tail. A journal written before payload segments is compacted at once, which moves
   * its bodies out of it.
   */
  static async open(dir: string, state: OutboxState, options: FileJournalOptions): Promise<FileJournal> {
    await mkdir(dir, { recursive: true });
    const removals = options.removals ?? new FileRemovals();
    await removals.removeLeftovers(dir);
    const names = await readdir(dir);
    // A crash during compaction can leave a half-written snapshot, or an older generation not yet deleted.
    for (const name of names.filter((n) => n.endsWith('.tmp'))) await removals.remove(join(dir, name));
    const generations = names.flatMap((n) => JOURNAL_NAME.exec(n)?.[1] ?? []).map(Number);
    const generation = generations.length > 0 ? Math.max(...generations) : 1;
    const path = join(dir, journalName(generation));
    let legacy = false;
    const replay = (record: Buffer) => {
      if (applyEntry(state, record)) legacy = true;
    };
    const intact = generations.length > 0 ? await readJournalFile(path, replay) : 0;
    const handle = await open(path, 'a');
    try {
      const { size } = await handle.stat();
      if (size > intact) {
        await handle.truncate(intact);
        await handle.sync();
      }
      if (generations.length === 0) await syncDir(dir);
      for (const old of generations.filter((g) => g !== generation))
        await removals.remove(join(dir, journalName(old)));
    } catch (err) {
      await handle.close();
      throw err;
    }
    // How much of a replayed journal is superseded is unknown: it is compacted once past
    // `compactAtBytes`, or as soon as payload segments can go.
    const journal = new FileJournal(dir, state, handle, generation, intact, 0, { ...options, removals });
    if (legacy) await journal.commit([], true);
    return journal;
  }

  /** Finish pending writes and close the file; changes are refused afterwards. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // A compaction under way is finished, not abandoned: its snapshot is most of the work.
    while (this.flushing || this.compaction) {
      await this.compaction?.job.written;
      await this.flushing;
    }
    await this.handle.close();
    for (const set of this.segments) await set.close();
    await this.removals.settled();
  }

  /** Throw when the journal is closed or failed to write. */
  usable(): void {
    if (this.closed) throw new Error('the outbox is closed');
    if (this.failure)
      throw new Error(`the outbox journal failed to write; reopen it to recover: ${this.failure}`);
  }

  /**
   * Resolves once `entries` (and everything queued before them) is on disk; with no entries it is
   * still a barrier, so a call that changed nothing cannot overtake an earlier one's fsync.
   */
  commit(entries: JournalEntry[], compact = false): Promise<void> {
    return new Promise((resolve, reject) => {
      const framed = entries.map(frameEntry);
      this.waiting.push({ framed, resolve, reject, compact });
      if (compact) this.compactWanted = true;
      this.flushing ??= this.flush();
    });
  }

  private async flush(): Promise<void> {
    for (;;) {
      // A snapshot written meanwhile goes into place between two batches, never during one.
      if (this.compaction && !this.compaction.busy) await this.finishCompaction(this.compaction);
      if (this.waiting.length === 0) break;
      const batch = this.waiting;
      this.waiting = [];
      try {
        if (this.failure) throw this.failure;
        for (const waiter of batch) for (const record of waiter.framed) this.owed.push(record);
        // The memory state holds every change in this batch and nothing after it, so this is the
        // instant a snapshot shows; later batches are its tail.
        if (!this.compaction && (this.compactWanted || this.compactionPays())) this.startCompaction();
        // The records the batch names reach the disk first.
        await this.flushSegments();
        await this.appendOwed();
        this.space?.wrote(STORE);
        for (const waiter of batch) {
          if (waiter.compact && this.compaction) this.compaction.job.waiters.push(waiter);
          else waiter.resolve();
        }
      } catch (err) {
        // A write the disk refused leaves the journal as it was and its records owed; anything
        // else leaves the files in a state only a reopen sorts out.
        const recoverable = this.failure === undefined && isFileSystemError(err);
        if (!recoverable) this.failure ??= err;
        const failure = recoverable ? diskWriteFailure(err, STORE, this.space) : err;
        for (const waiter of batch) waiter.reject(failure);
      }
    }
    this.flushing = undefined;
  }

  private async flushSegments(): Promise<void> {
    for (const set of this.segments) await set.flush();
  }

  // Write the owed records after the last good one: a torn tail a failure left is cut off first.
  private async appendOwed(): Promise<void> {
    // One record (a block's enqueue) is written as it is, not copied into a buffer of its own.
    const bytes = this.owed.length === 1 ? this.owed[0] : Buffer.concat(this.owed);
    if (this.torn) await this.handle.truncate(this.size);
    this.torn = false;
    if (bytes.length > 0) {
      try {
        this.torn = true;
        await writeAll(this.handle, bytes, null);
        await this.handle.datasync();
        this.torn = false;
      } catch (err) {
        await this.handle.truncate(this.size).then(
          () => (this.torn = false),
          () => undefined,
        );
        throw err;
      }
      this.size += bytes.length;
    }
    // Records a snapshot under way does not hold belong to its tail.
    const running = this.compaction;
    if (running) {
      for (const record of this.owed.slice(running.covered)) running.job.tail.push(record);
      running.covered = 0;
    }
    this.owed = [];
  }

  /**
   * Whether rewriting the journal now is worth what it writes (about the live state, at most the
   * journal's size): once the journal has doubled since it was last written whole (and is past
   * `compactAtBytes`), or once payload segments nothing is kept in any more add up to more than
   * the journal, since only a compaction lets them be deleted. A prune that forgot little changes
   * neither, so it does not rewrite the journal.
   */
  private compactionPays(): boolean {
    if (this.size >= Math.max(this.compactAtBytes, 2 * this.compactedSize)) return true;
    // After a compaction that failed (a full disk), segments wait for the doubling like the rest.
    if (this.compactFailed) return false;
    let reclaimable = 0;
    for (const set of this.segments) reclaimable += set.reclaimableBytes();
    return reclaimable > 0 && reclaimable >= this.size;
  }

  /**
   * Take a snapshot of the state now (a copy of references: cheap, synchronous) and start writing
   * it as the next generation, a slice at a time, while commits go on being appended here.
   */
  private startCompaction(): void {
    this.compactWanted = false;
    this.state.dropDeliveredBodies();
    const snapshot = StateSnapshot.take(this.state);
    const target = join(this.dir, journalName(this.generation + 1));
    const running: RunningCompaction = {
      busy: true,
      covered: this.owed.length,
      job: new Compaction(
        `${target}.tmp`,
        snapshot,
        this.sliceBytes,
        this.segments.map((set) => ({ keep: new Set(set.references().keys()), firstNew: set.activeSegment })),
        () => {
          running.busy = false;
          this.flushing ??= this.flush();
        },
      ),
    };
    this.compaction = running;
  }

  /**
   * Put a written snapshot into place: append its tail, fsync, rename, fsync the folder, then
   * delete the old generation and the payload segments neither the snapshot nor anything after it
   * names. When the snapshot could not be written (say, the disk is full) the old journal is still
   * whole and goes on; the next try waits until it has doubled.
   */
  private async finishCompaction(running: RunningCompaction): Promise<void> {
    this.compaction = undefined;
    const { job } = running;
    // Owed records the snapshot holds are not to be written after it.
    this.owed = this.owed.slice(running.covered);
    let written: number | undefined;
    if (job.ready && this.failure === undefined) {
      try {
        // Every record the snapshot or its tail names is on disk before they are.
        await this.flushSegments();
        written = await job.seal();
      } catch (err) {
        job.failure = err;
      }
    }
    if (written === undefined) {
      await job.discard();
      process.emitWarning(`outbox compaction failed, the journal keeps growing: ${String(job.failure)}`);
      this.compactedSize = this.size;
      this.compactFailed = true;
      for (const waiter of job.waiters) waiter.resolve();
      return;
    }
    try {
      const target = join(this.dir, journalName(this.generation + 1));
      await rename(job.path, target);
      await syncDir(this.dir);
      const handle = await open(target, 'a');
      await this.handle.close();
      this.handle = handle;
      await this.removals.remove(join(this.dir, journalName(this.generation)));
      this.generation++;
      this.size = this.compactedSize = written;
      this.torn = false;
      this.compactFailed = false;
      for (const [i, set] of this.segments.entries())
        await set.deleteUnreferenced(job.segments[i].keep, job.segments[i].firstNew);
    } catch (err) {
      // Which generation a reopen replays is unknown to this journal now: it takes no more changes.
      this.failure ??= err;
      for (const waiter of job.waiters) waiter.reject(err);
      return;
    }
    for (const waiter of job.waiters) waiter.resolve();
  }
}
