import type { FileHandle } from 'node:fs/promises';
import type { DiskSpaceReport } from '../../core/storage/write-failure.js';
import { JournalRemovedError } from './change-journal.js';
import { CoalescedWrites } from './coalesced-writes.js';
import { writeWhole } from './durable-json-file.js';
import { openLineFile, replaceLineFile } from './line-file.js';
import { parseLiveLine, type LiveLine } from './live-log-line.js';

/** The live log's name inside the data folder, beside the main file. */
export const LIVE_LOG_FILE_NAME = 'stackhooks-live.ndjson';

/** The log is rewritten as one snapshot line once it has grown by this many bytes, at least... */
const LIVE_LOG_MIN_REWRITE_BYTES = 4 << 20;
/** ...and by this many times the last snapshot, so rewriting costs a bounded share of the steps. */
const LIVE_LOG_REWRITE_FACTOR = 2;

/**
 * The live log: one JSON line per live step (the progress, and what the step wrote of each hook it
 * wrote: status and delivery state), appended and fsynced before the step is acknowledged, so a
 * block costs the hooks it reaches, not every hook changed since the main file last took the steps
 * in. Appends coalesce like the change journal's. Once the lines appended since the last rewrite
 * outweigh the snapshot they stand for, the next write replaces the file with one snapshot line
 * taken from the state (`snapshot`), written aside, fsynced and renamed into place; so is the next
 * write after a failed one, since the state holds every step whatever reached the disk.
 */
export class LiveLog {
  #handle: FileHandle;
  /** Bytes of whole lines on disk: where a failed append is cut back to. */
  #size: number;
  /** Bytes appended since the file was last written whole. */
  #appended: number;
  /** Bytes of the snapshot line the file was last written whole with. */
  #snapshotBytes = 0;
  #pending: string[] = [];
  #rewrite = false;
  readonly #writes: CoalescedWrites;

  private constructor(
    readonly path: string,
    handle: FileHandle,
    size: number,
    private readonly snapshot: () => string,
    private readonly rewriteBytes: number,
    space: DiskSpaceReport | undefined,
  ) {
    this.#handle = handle;
    this.#size = size;
    this.#appended = size;
    this.#writes = new CoalescedWrites(() => this.#write(), path, space);
  }

  /**
   * Open the log at `path` (created when missing), cutting off a torn tail; returns it with the
   * lines it holds, oldest first. A log damaged elsewhere than at its tail is refused and left
   * untouched. `snapshot` gives the line that stands for every step so far, from the state; the
   * log is rewritten once it has grown by `liveLogRewriteBytes` (default 4 MiB) and twice that line.
   */
  static async open(
    path: string,
    snapshot: () => string,
    options: { space?: DiskSpaceReport; liveLogRewriteBytes?: number } = {},
  ): Promise<{ log: LiveLog; lines: LiveLine[] }> {
    const { handle, ...read } = await openLineFile(path, parseLiveLine, 'the live stream log');
    const rewriteBytes = options.liveLogRewriteBytes ?? LIVE_LOG_MIN_REWRITE_BYTES;
    const log = new LiveLog(path, handle, read.wholeBytes, snapshot, rewriteBytes, options.space);
    return { log, lines: read.entries };
  }

  /** Whether the last write failed (what it carried waits for the next one). */
  get failing(): boolean {
    return this.#writes.failing;
  }

  /** Append a step's line (JSON, no newline); resolves once a write that holds the step is on disk. */
  append(line: string): Promise<void> {
    this.#pending.push(`${line}\n`);
    this.#appended += line.length + 1;
    if (this.#appended > Math.max(this.rewriteBytes, LIVE_LOG_REWRITE_FACTOR * this.#snapshotBytes))
      this.#rewrite = true;
    return this.#writes.persist();
  }

  /** Write the file anew as one snapshot line; resolves once it is on disk. */
  rewrite(): Promise<void> {
    this.#rewrite = true;
    return this.#writes.persist();
  }

  /** Resolve once every step appended so far is on disk; rejects when a write fails. */
  flush(): Promise<void> {
    return this.#writes.flush();
  }

  /** Flush, then close the file. */
  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      await this.#handle.close();
    }
  }

  async #write(): Promise<void> {
    const lines = this.#pending;
    this.#pending = [];
    if (this.#rewrite) {
      // The snapshot is taken now, from a state that holds every step so far: the lines waiting
      // are in it.
      this.#rewrite = false;
      try {
        await this.#writeAnew(`${this.snapshot()}\n`);
      } catch (err) {
        this.#rewrite = true;
        throw err;
      }
      return;
    }
    if (lines.length === 0) return;
    const bytes = Buffer.from(lines.join(''));
    try {
      await writeWhole(this.#handle, bytes);
      await this.#handle.datasync();
      // A log removed under the process (its folder deleted) would take appends no open can read.
      if ((await this.#handle.stat()).nlink === 0) throw new JournalRemovedError(this.path);
      this.#size += bytes.length;
    } catch (err) {
      // A torn append is cut back so no torn line hides later ones; failing that, the next write
      // makes the file anew. Either way the state holds these steps, so a snapshot carries them.
      this.#rewrite = true;
      await this.#handle.truncate(this.#size).catch(() => undefined);
      throw err;
    }
  }

  /** Replace the file with `text`, durably: written aside, fsynced, renamed, the folder fsynced. */
  async #writeAnew(text: string): Promise<void> {
    const bytes = Buffer.from(text);
    this.#handle = await replaceLineFile(this.path, bytes, this.#handle);
    this.#size = this.#appended = this.#snapshotBytes = bytes.length;
  }
}
