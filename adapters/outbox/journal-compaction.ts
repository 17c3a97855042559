import { open, unlink, type FileHandle } from 'node:fs/promises';
import { writeAll } from '../../core/storage/write-all.js';
import type { StateSnapshot } from './state-snapshot.js';

/**
 * One set of segments as a snapshot found it: the segments it names (referenced when it was
 * taken), and the first segment started after it (the tail may name those).
 */
export type SegmentsKept = { keep: ReadonlySet<number>; firstNew: number };

/**
 * A snapshot is synced each time this much more of it is written: the disk then never has a
 * journal's worth of it to write at the last sync, which held every other fsync on the disk
 * (the observer's among them) for over 100 ms at 200 MiB.
 */
const SYNC_EVERY_BYTES = 8 * 1024 * 1024;

/** A commit that asked for a compaction: it resolves once that compaction is over. */
export type CompactionWaiter = { resolve: () => void; reject: (err: unknown) => void };

/**
 * One compaction under way: a snapshot written, a slice at a time, to the next generation's
 * temporary file while the journal keeps taking commits, and the records those commits appended
 * since the snapshot was taken (the tail). Sealing appends the tail, so the file holds the state
 * at the snapshot's instant and every change after it: the journal renames it into place between
 * two commits. Until then the old generation is whole and still appended to, so a crash at any
 * point replays one or the other.
 */
export class Compaction {
  /** Framed records appended to the old generation since the snapshot was taken. */
  readonly tail: Buffer[] = [];
  /** Commits that asked for this compaction. */
  readonly waiters: CompactionWaiter[] = [];
  /** Settles (never rejects) once the snapshot is written, or failed to be. */
  readonly written: Promise<void>;
  /** Why the snapshot could not be written, if it could not. */
  failure: unknown;
  private out: FileHandle | undefined;
  private bytes = 0;

  constructor(
    /** The temporary file it writes (renamed into place by the journal). */
    readonly path: string,
    snapshot: StateSnapshot,
    /** Bytes of records encoded and written at a time. */
    private readonly sliceBytes: number | undefined,
    /** Each segment set (payloads, settlements) as the snapshot found it. */
    readonly segments: readonly SegmentsKept[],
    onWritten: () => void,
    /** The snapshot is synced each time this many more bytes of it are written. */
    private readonly syncEveryBytes = SYNC_EVERY_BYTES,
  ) {
    this.written = this.write(snapshot).finally(onWritten);
  }

  /** Whether the snapshot is written (and fsynced) and only the tail is left to add. */
  get ready(): boolean {
    return this.out !== undefined && this.failure === undefined;
  }

  /** Append the tail, fsync and close the file; returns its size. */
  async seal(): Promise<number> {
    const tail = Buffer.concat(this.tail);
    const out = this.out!;
    this.out = undefined;
    try {
      await writeAll(out, tail, null);
      await out.sync();
    } finally {
      await out.close();
    }
    return this.bytes + tail.length;
  }

  /** Give up: close and delete the temporary file. */
  async discard(): Promise<void> {
    await this.out?.close().catch(() => undefined);
    this.out = undefined;
    await unlink(this.path).catch(() => undefined);
  }

  private async write(snapshot: StateSnapshot): Promise<void> {
    let out: FileHandle | undefined;
    try {
      out = await open(this.path, 'w');
      // Each slice is encoded, then written: the loop runs other work while the write is out.
      let unsynced = 0;
      for (const slice of snapshot.slices(this.sliceBytes)) {
        await writeAll(out, slice, null);
        this.bytes += slice.length;
        unsynced += slice.length;
        if (unsynced >= this.syncEveryBytes) {
          await out.datasync();
          unsynced = 0;
        }
      }
      snapshot.release();
      await out.sync();
      this.out = out;
    } catch (err) {
      snapshot.release();
      this.failure = err;
      await out?.close().catch(() => undefined);
      await unlink(this.path).catch(() => undefined);
    }
  }
}
