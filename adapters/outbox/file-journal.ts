import { mkdir, open, readdir, rename, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { writeAll } from '../../core/storage/write-all.js';
import {
  diskWriteFailure,
  isFileSystemError,
  type DiskSpaceReport,
} from '../../core/storage/write-failure.js';
import { syncDir } from './sync-dir.js';
import { applyEntry, encodeEntry, snapshotEntries, type JournalEntry } from './journal-entry.js';
import { frameRecord, readJournalFile } from './journal-file.js';
import type { OutboxJournal } from './journaled-outbox.js';
import type { OutboxState } from './outbox-state.js';
import type { PayloadSegments } from './payload-segments.js';

type Waiter = { framed: Buffer[]; resolve: () => void; reject: (err: unknown) => void };

/** A compaction's snapshot, encoded at one instant, with the payload segments it names. */
type Snapshot = { records: Buffer[]; segments: Set<number> };

const JOURNAL_NAME = /^journal-(\d{12})\.log$/;
/** Snapshot writes go out in slices this big instead of one buffer the size of the state. */
const WRITE_SLICE_BYTES = 8 * 1024 * 1024;

const STORE = 'outbox';

const journalName = (generation: number): string => `journal-${String(generation).padStart(12, '0')}.log`;

/**
 * The file outbox's journal of checksummed records (`journal-<generation>.log`). Every change is
 * applied in memory, then appended; a commit resolves after fsync, and commits that arrive together
 * share one write and one fsync (group commit). The payload records the changes name are written
 * and fsynced first (`PayloadSegments`), so the journal never points at bytes a crash could lose.
 * Compaction writes the live state as the next generation and renames it into place, so the newest
 * generation is always complete, then deletes the payload segments that no longer hold a record
 * the snapshot names. A write or fsync that fails (a full disk) rejects its commits with
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

  private constructor(
    private readonly dir: string,
    private readonly state: OutboxState,
    private handle: FileHandle,
    private generation: number,
    private size: number,
    /** The journal's size right after the last compaction. */
    private compactedSize: number,
    private readonly compactAtBytes: number,
    private readonly payloads: PayloadSegments | undefined,
    private readonly space: DiskSpaceReport | undefined,
  ) {}

  /**
   * Open (or create) the journal in `dir`, replaying the newest generation into `state` and cutting
   * off a torn tail. A journal written before payload segments is compacted at once, which moves
   * its bodies out of it.
   */
  static async open(
    dir: string,
    state: OutboxState,
    compactAtBytes: number,
    payloads?: PayloadSegments,
    space?: DiskSpaceReport,
  ): Promise<FileJournal> {
    await mkdir(dir, { recursive: true });
    const names = await readdir(dir);
    // A crash during compaction can leave a half-written snapshot, or an older generation not yet deleted.
    for (const name of names.filter((n) => n.endsWith('.tmp'))) await unlink(join(dir, name));
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
        await unlink(join(dir, journalName(old)));
    } catch (err) {
      await handle.close();
      throw err;
    }
    // How much of a replayed journal is superseded is unknown: it is compacted once past
    // `compactAtBytes`, or as soon as payload segments can go.
    const journal = new FileJournal(
      dir,
      state,
      handle,
      generation,
      intact,
      0,
      compactAtBytes,
      payloads,
      space,
    );
    if (legacy) await journal.commit([], true);
    return journal;
  }

  /** Finish pending writes and close the file; changes are refused afterwards. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    while (this.flushing) await this.flushing;
    await this.handle.close();
    await this.payloads?.close();
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
      this.waiting.push({ framed: entries.map((e) => frameRecord(encodeEntry(e))), resolve, reject });
      if (compact) this.compactWanted = true;
      this.flushing ??= this.flush();
    });
  }

  private async flush(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting;
      this.waiting = [];
      try {
        if (this.failure) throw this.failure;
        for (const waiter of batch) for (const record of waiter.framed) this.owed.push(record);
        // Compaction snapshots the memory state, which already holds every change in this batch,
        // and nothing after it: the snapshot is taken before anything else can run.
        const compact = this.compactWanted || this.compactionPays();
        this.compactWanted = false;
        const snapshot = compact ? this.snapshot() : undefined;
        // The payload records the batch (or the snapshot) names reach the disk first.
        await this.payloads?.flush();
        if (!snapshot || !(await this.compact(snapshot))) await this.appendOwed();
        this.owed = [];
        this.space?.wrote(STORE);
        for (const waiter of batch) waiter.resolve();
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

  // Write the owed records after the last good one: a torn tail a failure left is cut off first.
  private async appendOwed(): Promise<void> {
    const bytes = Buffer.concat(this.owed);
    if (this.torn) await this.handle.truncate(this.size);
    this.torn = false;
    if (bytes.length === 0) return;
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
    const reclaimable = this.payloads?.reclaimableBytes() ?? 0;
    return reclaimable > 0 && reclaimable >= this.size;
  }

  /** The live state as journal records, and the payload segments it names; synchronous. */
  private snapshot(): Snapshot {
    this.state.dropDeliveredBodies();
    const records = [...snapshotEntries(this.state)].map((e) => frameRecord(encodeEntry(e)));
    return { records, segments: new Set(this.payloads?.references().keys()) };
  }

  /**
   * Write a snapshot as the next generation: to a temporary file, fsync, rename, fsync the folder,
   * then delete the old generation and the payload segments nothing in the snapshot names. The
   * snapshot was encoded before the first await, so no change can slip between the state it shows
   * and the journal that follows it. False when it could not be written (say, the disk is full):
   * the old journal is still whole, so the batch is appended to it instead, and the next try waits
   * until the journal has doubled.
   */
  private async compact({ records, segments }: Snapshot): Promise<boolean> {
    const generation = this.generation + 1;
    const target = join(this.dir, journalName(generation));
    let written: number;
    try {
      written = await writeSnapshot(`${target}.tmp`, records);
    } catch (err) {
      await unlink(`${target}.tmp`).catch(() => undefined);
      process.emitWarning(`outbox compaction failed, the journal keeps growing: ${String(err)}`);
      this.compactedSize = this.size;
      this.compactFailed = true;
      return false;
    }
    try {
      await rename(`${target}.tmp`, target);
      await syncDir(this.dir);
      const handle = await open(target, 'a');
      await this.handle.close();
      this.handle = handle;
      await unlink(join(this.dir, journalName(this.generation)));
      this.generation = generation;
      this.size = this.compactedSize = written;
      this.compactFailed = false;
      this.torn = false;
      await this.payloads?.deleteUnreferenced(segments);
    } catch (err) {
      // Which generation a reopen replays is unknown to this journal now: it takes no more changes.
      this.failure ??= err;
      throw err;
    }
    return true;
  }
}

// Write framed records to a new file in slices and fsync it; returns the bytes written.
async function writeSnapshot(path: string, records: Buffer[]): Promise<number> {
  const out = await open(path, 'w');
  let written = 0;
  try {
    for (let i = 0; i < records.length;) {
      const slice: Buffer[] = [];
      let bytes = 0;
      while (i < records.length && (slice.length === 0 || bytes < WRITE_SLICE_BYTES)) {
        bytes += records[i].length;
        slice.push(records[i++]);
      }
      await writeAll(out, Buffer.concat(slice, bytes), null);
      written += bytes;
    }
    await out.sync();
  } finally {
    await out.close();
  }
  return written;
}
