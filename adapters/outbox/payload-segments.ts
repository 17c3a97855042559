import { closeSync, constants, openSync, readSync } from 'node:fs';
import { mkdir, open, readdir, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { writeAll } from '../../core/storage/write-all.js';
import { FileRemovals } from './file-removals.js';
import { syncDir } from './sync-dir.js';

/** Where a payload's record is: segment number, byte offset of the record, payload length. */
export type Locator = { seg: number; off: number; len: number };

/** Bytes before each record: payload length (u32 LE), then its CRC-32 (u32 LE). */
export const HEADER_BYTES = 8;
/** At most this many UTF-8 bytes per UTF-16 code unit: a bound for a string's bytes without counting them. */
export const MAX_BYTES_PER_CHAR = 3;
const SEGMENT_NAME = /^(\d{6})\.seg$/;

const segmentName = (seg: number): string => `${String(seg).padStart(6, '0')}.seg`;

/**
 * Records appended but not yet on disk: a run of them, one after the other in one segment from
 * `off`, framed into the first `used` bytes of `bytes`. `written` is a write of the whole run started
 * as soon as it was full, resolving to what it failed with (if it did); the flush that finds it
 * waits for it instead of writing the run again.
 */
type Unwritten = { seg: number; off: number; bytes: Buffer; used: number; written?: Promise<unknown> };

/**
 * The first run of a flush is framed into a buffer this big, each next one into twice the last, up
 * to `MAX_RUN_BYTES` (or one record's size): a single small record does not take a megabyte, and a
 * thousand records are a few buffers.
 */
const FIRST_RUN_BYTES = 64 * 1024;
const MAX_RUN_BYTES = 1024 * 1024;

/**
 * The file outbox's payload records, each written once and never changed: numbered segment files
 * (`payloads/000001.seg`, …) of checksummed records, appended in order, a new segment started past
 * `segmentBytes` and at every open (so a torn tail is never appended to). A record is placed (its
 * locator known) at once and written by the next `flush`, which fsyncs it; the journal that names
 * it is written only after, so a locator in the journal always points at durable bytes. Reads are
 * synchronous positional reads (page cache, microseconds), or from memory while unwritten, so the
 * outbox state machine stays synchronous. A segment is deleted once no record in it is referenced
 * (`retain`/`release`) and a compaction has made the journal forget it.
 */
export class PayloadSegments {
  private unwritten: Unwritten[] = [];
  private writing: Unwritten[] = [];
  private readonly writers = new Map<number, Promise<FileHandle>>();
  private readonly readers = new Map<number, number>();
  private readonly refs = new Map<number, number>();
  /** Bytes of each segment file on disk (the active one as placed so far). */
  private readonly sizes = new Map<number, number>();
  private startedNew = false;

  private constructor(
    private readonly dir: string,
    private readonly segmentBytes: number,
    private active: number,
    private activeSize: number,
    private readonly removals: FileRemovals,
  ) {}

  /**
   * Open the segments in `dir`, appending to a new segment after the newest; segments let go of
   * are removed by `removals` (shared with the journal, so one file at a time is taken apart).
   */
  static async open(
    dir: string,
    segmentBytes: number,
    removals = new FileRemovals(),
  ): Promise<PayloadSegments> {
    await mkdir(dir, { recursive: true });
    await removals.removeLeftovers(dir);
    const numbers = (await readdir(dir)).flatMap((n) => SEGMENT_NAME.exec(n)?.[1] ?? []).map(Number);
    const segments = new PayloadSegments(dir, segmentBytes, Math.max(0, ...numbers) + 1, 0, removals);
    for (const seg of numbers) segments.sizes.set(seg, (await stat(join(dir, segmentName(seg)))).size);
    segments.startedNew = true;
    return segments;
  }

  /**
   * Place a record of `text`'s UTF-8 bytes (of its parts one after the other, when it is a list: a
   * record made of pieces is not put together as one string first); it is written (and fsynced) by
   * the next `flush`. It starts the next segment when this one is full, unless `mayStartSegment` is
   * false: records that name each other by offset are placed after one `makeRoom` for all of them,
   * in one segment.
   */
  append(text: string | readonly string[], mayStartSegment = true): Locator {
    const parts = typeof text === 'string' ? [text] : text;
    // Room is made for the most the text can encode to, so its bytes are never counted apart from
    // encoding them: the record then takes only what they came to.
    let chars = 0;
    for (const part of parts) chars += part.length;
    const bound = HEADER_BYTES + MAX_BYTES_PER_CHAR * chars;
    if (mayStartSegment) this.makeRoom(bound);
    // Encoded once, straight into the record's frame, beside the records placed before it.
    const run = this.runFor(bound);
    const { bytes, used: at } = run;
    let end = at + HEADER_BYTES;
    for (const part of parts) end += bytes.write(part, end, 'utf8');
    const framed = end - at;
    const length = framed - HEADER_BYTES;
    bytes.writeUInt32LE(length, at);
    bytes.writeUInt32LE(crc32(bytes.subarray(at + HEADER_BYTES, at + framed)), at + 4);
    run.used += framed;
    const loc = { seg: this.active, off: this.activeSize, len: length };
    this.activeSize += framed;
    this.sizes.set(this.active, this.activeSize);
    return loc;
  }

  /**
   * Start the next segment unless this one is empty or has room for `bytes` more (framed records),
   * so records placed next without starting a segment land in the same one.
   */
  makeRoom(bytes: number): void {
    if (this.activeSize > 0 && this.activeSize + bytes > this.segmentBytes) {
      this.active++;
      this.activeSize = 0;
      this.startedNew = true;
    }
  }

  /** Whether records wait to be written. */
  hasUnwritten(): boolean {
    return this.unwritten.length > 0;
  }

  /** The payload bytes of a record; throws when they are missing or fail their checksum. */
  read(loc: Locator): Buffer {
    const pending = this.findUnwritten(loc);
    const framed = pending ?? this.readFramed(loc);
    const length = framed.readUInt32LE(0);
    const payload = framed.subarray(HEADER_BYTES, HEADER_BYTES + loc.len);
    if (length !== loc.len || crc32(payload) !== framed.readUInt32LE(4)) {
      throw new Error(`outbox payload record ${segmentName(loc.seg)}@${loc.off} is damaged`);
    }
    return payload;
  }

  /** One more reference to the record's segment. */
  retain(loc: Locator): void {
    this.refs.set(loc.seg, (this.refs.get(loc.seg) ?? 0) + 1);
  }

  /** One reference fewer to the record's segment. */
  release(loc: Locator): void {
    const left = (this.refs.get(loc.seg) ?? 0) - 1;
    if (left > 0) this.refs.set(loc.seg, left);
    else this.refs.delete(loc.seg);
  }

  /**
   * Bytes of the complete segments no record is referenced in any more: what deleting them after
   * a compaction would free.
   */
  reclaimableBytes(): number {
    let bytes = 0;
    for (const [seg, size] of this.sizes) if (seg < this.active && !this.refs.has(seg)) bytes += size;
    return bytes;
  }

  /** The segment records are appended to now. */
  get activeSegment(): number {
    return this.active;
  }

  /** Bytes of every segment file (the active one as placed so far). */
  get diskBytes(): number {
    let bytes = 0;
    for (const size of this.sizes.values()) bytes += size;
    return bytes;
  }

  /** Segments written so far and their referenced records (for tests and the report). */
  references(): Map<number, number> {
    return new Map(this.refs);
  }

  /**
   * Write every placed record and fsync it (and the folder, when a segment file is new). When that
   * fails (a full disk) the records stay placed and the next flush writes them again, whole, at
   * their places: a record is named by the journal only after a flush that wrote it succeeded.
   */
  async flush(): Promise<void> {
    if (this.unwritten.length === 0) return;
    this.writing = this.unwritten;
    this.unwritten = [];
    try {
      for (const [seg, records] of groupBySegment(this.writing)) {
        const handle = await this.writer(seg);
        for (const run of records) {
          // A write started early counts once it succeeded; one that failed is written again here.
          const early = run.written;
          run.written = undefined;
          if (early === undefined || (await early) !== undefined)
            await writeAll(handle, run.bytes.subarray(0, run.used), run.off);
        }
        await handle.datasync();
      }
      if (this.startedNew) {
        await syncDir(this.dir);
        this.startedNew = false;
      }
      // Segments before the active one are complete, unless records placed meanwhile wait for one.
      const waiting = new Set(this.unwritten.map((run) => run.seg));
      for (const [seg, handle] of this.writers) {
        if (seg === this.active || waiting.has(seg)) continue;
        this.writers.delete(seg);
        await (await handle).close();
      }
    } catch (err) {
      this.unwritten = [...this.writing, ...this.unwritten];
      throw err;
    } finally {
      this.writing = [];
    }
  }

  /**
   * Delete the segment files before `before` (and before the active one) but those in `keep` (the
   * segments a compaction snapshot names, as referenced when it was taken). Only right after that
   * snapshot is durable: then the journal no longer names the others, and no replay will read them.
   * Each is renamed aside at once and taken apart in the background (`FileRemovals`).
   */
  async deleteUnreferenced(keep: ReadonlySet<number>, before = this.active): Promise<number> {
    let deleted = 0;
    const end = Math.min(before, this.active);
    for (const name of await readdir(this.dir)) {
      const seg = Number(SEGMENT_NAME.exec(name)?.[1] ?? NaN);
      if (!(seg < end) || keep.has(seg) || this.refs.has(seg) || this.writers.has(seg)) continue;
      const fd = this.readers.get(seg);
      if (fd !== undefined) closeSync(fd);
      this.readers.delete(seg);
      await this.removals.remove(join(this.dir, name));
      this.sizes.delete(seg);
      deleted++;
    }
    return deleted;
  }

  /** Close every file. */
  async close(): Promise<void> {
    for (const run of this.unwritten) await run.written;
    for (const handle of this.writers.values()) await (await handle).close();
    this.writers.clear();
    for (const fd of this.readers.values()) closeSync(fd);
    this.readers.clear();
    await this.removals.settled();
  }

  private findUnwritten(loc: Locator): Buffer | undefined {
    for (const list of [this.writing, this.unwritten]) {
      for (const run of list) {
        const at = loc.off - run.off;
        if (run.seg === loc.seg && at >= 0 && at < run.used)
          return run.bytes.subarray(at, at + HEADER_BYTES + loc.len);
      }
    }
    return undefined;
  }

  // The run a record of `framed` bytes is placed at the end of: the last one when it ends where the
  // active segment does and has room (a run being written is never appended to), else a new one.
  private runFor(framed: number): Unwritten {
    const last = this.unwritten.at(-1);
    if (
      last &&
      last.seg === this.active &&
      last.off + last.used === this.activeSize &&
      last.used + framed <= last.bytes.length
    )
      return last;
    const size = last ? Math.min(MAX_RUN_BYTES, 2 * last.bytes.length) : FIRST_RUN_BYTES;
    // The last run takes no more records: it is written now, while the next ones are placed.
    if (last && last.written === undefined) last.written = this.writeEarly(last);
    const run = {
      seg: this.active,
      off: this.activeSize,
      bytes: Buffer.allocUnsafe(Math.max(size, framed)),
      used: 0,
    };
    this.unwritten.push(run);
    return run;
  }

  private readFramed(loc: Locator): Buffer {
    let fd = this.readers.get(loc.seg);
    if (fd === undefined) {
      fd = openSync(join(this.dir, segmentName(loc.seg)), 'r');
      this.readers.set(loc.seg, fd);
    }
    const framed = Buffer.allocUnsafe(HEADER_BYTES + loc.len);
    const read = readSync(fd, framed, 0, framed.length, loc.off);
    if (read < framed.length) {
      throw new Error(`outbox payload record ${segmentName(loc.seg)}@${loc.off} is cut short`);
    }
    return framed;
  }

  // A write of a full run, its failure kept (not thrown): the flush that comes to it writes it again.
  private async writeEarly(run: Unwritten): Promise<unknown> {
    try {
      await writeAll(await this.writer(run.seg), run.bytes.subarray(0, run.used), run.off);
      return undefined;
    } catch (err) {
      return err ?? new Error('a payload segment write failed');
    }
  }

  // Opened once (the open shared by writes that ask at once), and never truncated: a segment that
  // is opened again still holds the records written to it.
  private writer(seg: number): Promise<FileHandle> {
    let handle = this.writers.get(seg);
    if (!handle) {
      handle = open(join(this.dir, segmentName(seg)), constants.O_WRONLY | constants.O_CREAT, 0o666);
      this.writers.set(seg, handle);
      // A failed open is tried again by the next write, not remembered.
      handle.catch(() => {
        if (this.writers.get(seg) === handle) this.writers.delete(seg);
      });
    }
    return handle;
  }
}

function groupBySegment(records: readonly Unwritten[]): Map<number, Unwritten[]> {
  const groups = new Map<number, Unwritten[]>();
  for (const record of records) {
    const group = groups.get(record.seg);
    if (group) group.push(record);
    else groups.set(record.seg, [record]);
  }
  return groups;
}
