import { writeSync } from 'node:fs';
import { mkdir, open, readdir, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { BlockHeader } from '../../core/chain/block-header.js';
import { writeAllSync } from '../../core/storage/write-all.js';

/** Where a record starts: a segment number and a byte offset inside it. */
export type LogPosition = { segment: number; offset: number };

/** A record as found by a scan: the block's header, where it is, and its length on disk. */
export type ScannedRecord = { header: BlockHeader; position: LogPosition; length: number };

/** A record met reading on through the log: its block's hash, its length on disk, and its body (crc checked when taken). */
export type MetRecord = { hash: string; length: number; body(): Buffer };

const MAGIC = 0x53484231; // "SHB1"
/** magic u32, payload length u32, crc32 of the payload u32. */
const RECORD_HEAD = 12;
/** hash 32, parent hash 32, height u32; the block's JSON follows. */
const PAYLOAD_HEAD = 68;
const OPEN_READERS = 16;
/** Records closer than this are read together with what lies between (mostly blocks of other branches). */
const COALESCE_GAP = 64 * 1024;
/** The most one read of `readMany` takes in, so a run of busy blocks is read in pieces of bounded size. */
const MAX_RUN_BYTES = 8 * 1024 * 1024;

const segmentName = (segment: number): string => `${String(segment).padStart(6, '0')}.seg`;

/** True when `a` lies before `b` in the log. */
export function isBefore(a: LogPosition, b: LogPosition): boolean {
  return a.segment < b.segment || (a.segment === b.segment && a.offset < b.offset);
}

function encodeRecord(header: BlockHeader, body: Buffer): Buffer {
  const record = Buffer.allocUnsafe(RECORD_HEAD + PAYLOAD_HEAD + body.length);
  record.writeUInt32BE(MAGIC, 0);
  record.writeUInt32BE(PAYLOAD_HEAD + body.length, 4);
  record.write(header.hash.slice(2), RECORD_HEAD, 'hex');
  record.write(header.parent_hash.slice(2), RECORD_HEAD + 32, 'hex');
  record.writeUInt32BE(header.height, RECORD_HEAD + 64);
  body.copy(record, RECORD_HEAD + PAYLOAD_HEAD);
  record.writeUInt32BE(crc32(record.subarray(RECORD_HEAD)), 8);
  return record;
}

function decodeHeader(payload: Buffer): BlockHeader {
  return {
    hash: `0x${payload.toString('hex', 0, 32)}`,
    parent_hash: `0x${payload.toString('hex', 32, 64)}`,
    height: payload.readUInt32BE(64),
  };
}

/**
 * The archive's source of truth: block records appended to numbered segment files, each record
 * framed with its length and a crc32 so that a torn or corrupt tail is recognised and cut off.
 */
export class RecordLog {
  readonly #dir: string;
  readonly #segmentBytes: number;
  #writer: FileHandle;
  #end: LogPosition;
  /** A failed append may have left bytes past the end: they are cut before the next append. */
  #torn = false;
  readonly #readers = new Map<number, FileHandle>();

  private constructor(dir: string, segmentBytes: number, writer: FileHandle, end: LogPosition) {
    this.#dir = dir;
    this.#segmentBytes = segmentBytes;
    this.#writer = writer;
    this.#end = end;
  }

  /** Open the log in `dir` (created when missing) for appending after its last segment's end. */
  static async open(dir: string, segmentBytes: number): Promise<RecordLog> {
    await mkdir(dir, { recursive: true });
    const segments = await listSegments(dir);
    const last = segments.at(-1) ?? 0;
    const writer = await open(join(dir, segmentName(last)), 'a+');
    const { size } = await writer.stat();
    return new RecordLog(dir, segmentBytes, writer, { segment: last, offset: size });
  }

  /** Where the next record will go. */
  end(): LogPosition {
    return { ...this.#end };
  }

  /** The size of `segment` on disk, or undefined when it does not exist. */
  async segmentSize(segment: number): Promise<number | undefined> {
    if (segment === this.#end.segment) return this.#end.offset;
    if (segment > this.#end.segment) return undefined;
    return (
      await this.#reader(segment)
        .then((handle) => handle.stat())
        .catch(() => undefined)
    )?.size;
  }

  /**
   * Append a block; a full segment is synced and closed before the next one starts. A write that
   * fails (a full disk) throws with the log as it was: what it wrote is cut off, now or before the
   * next append, and the end moves only over records written whole.
   */
  async append(header: BlockHeader, body: Buffer): Promise<{ position: LogPosition; length: number }> {
    const record = encodeRecord(header, body);
    await this.#cutTornTail();
    if (this.#end.offset > 0 && this.#end.offset + record.length > this.#segmentBytes) {
      // The next segment is opened before the full one is let go, so a failure leaves the log as it was.
      await this.#writer.sync();
      const next = await open(join(this.#dir, segmentName(this.#end.segment + 1)), 'a+');
      await this.#writer.close().catch(() => undefined);
      this.#writer = next;
      this.#end = { segment: this.#end.segment + 1, offset: 0 };
    }
    const position = this.end();
    const fd = this.#writer.fd;
    // Synchronous: the record goes to the page cache (durability comes from sync()), which takes
    // less than the thread-pool round trip of an asynchronous write, even for a busy block.
    try {
      writeAllSync((bytes, offset, length, at) => writeSync(fd, bytes, offset, length, at), record, null);
    } catch (err) {
      this.#torn = true;
      await this.#cutTornTail().catch(() => undefined);
      throw err;
    }
    this.#end.offset += record.length;
    return { position, length: record.length };
  }

  // The writer is in append mode, so a torn tail left in place would sit before the next record.
  async #cutTornTail(): Promise<void> {
    if (!this.#torn) return;
    await this.#writer.truncate(this.#end.offset);
    this.#torn = false;
  }

  /** Make every appended record durable. */
  async sync(): Promise<void> {
    await this.#writer.sync();
  }

  /** A block's JSON body, checked against its crc; throws when the record is damaged. */
  async read(position: LogPosition, length: number): Promise<Buffer> {
    const handle = await this.#reader(position.segment);
    const record = Buffer.allocUnsafe(length);
    const { bytesRead } = await handle.read(record, 0, length, position.offset);
    if (bytesRead !== length || !isIntact(record)) {
      throw new Error(`block record damaged at segment ${position.segment} offset ${position.offset}`);
    }
    return record.subarray(RECORD_HEAD + PAYLOAD_HEAD);
  }

  /**
   * Many blocks' JSON bodies, each checked against its crc, in the order asked. Records that lie
   * close together in the log (a canonical chain mostly does, in height order) are read with one
   * read a run, so a range of blocks costs a few large reads instead of one read a block.
   */
  async readMany(records: (LogPosition & { length: number })[]): Promise<Buffer[]> {
    const order = records.map((_, i) => i).sort((a, b) => comparePositions(records[a], records[b]));
    const bodies: Buffer[] = new Array<Buffer>(records.length);
    for (let start = 0; start < order.length;) {
      const first = records[order[start]];
      let runEnd = first.offset + first.length;
      let end = start + 1;
      for (; end < order.length; end++) {
        const next = records[order[end]];
        const nextEnd = Math.max(runEnd, next.offset + next.length);
        if (next.segment !== first.segment || next.offset - runEnd > COALESCE_GAP) break;
        if (nextEnd - first.offset > MAX_RUN_BYTES) break;
        runEnd = nextEnd;
      }
      const handle = await this.#reader(first.segment);
      const run = Buffer.allocUnsafe(runEnd - first.offset);
      const { bytesRead } = await handle.read(run, 0, run.length, first.offset);
      for (let i = start; i < end; i++) {
        const { segment, offset, length } = records[order[i]];
        const at = offset - first.offset;
        const record = run.subarray(at, at + length);
        if (at + length > bytesRead || !isIntact(record)) {
          throw new Error(`block record damaged at segment ${segment} offset ${offset}`);
        }
        bodies[order[i]] = record.subarray(RECORD_HEAD + PAYLOAD_HEAD);
      }
      start = end;
    }
    return bodies;
  }

  /**
   * The whole records in the next `bytes` bytes of the log from `from` (within its segment), and
   * where reading on would start: after the last whole record, the next segment's start at a
   * segment's end, or undefined at the log's end or at bytes that are no record (a reader then
   * finds what it still wants another way). A record's crc is checked only when its body is taken,
   * so records read past cost their framing alone.
   */
  async readOn(from: LogPosition, bytes: number): Promise<{ records: MetRecord[]; next?: LogPosition }> {
    const size = (await this.segmentSize(from.segment)) ?? 0;
    const wanted = Math.min(bytes, size - from.offset);
    const records: MetRecord[] = [];
    if (wanted <= 0) return { records, next: this.#after(from.segment, size) };
    const handle = await this.#reader(from.segment);
    const run = Buffer.allocUnsafe(wanted);
    const { bytesRead } = await handle.read(run, 0, wanted, from.offset);
    let at = 0;
    while (at + RECORD_HEAD <= bytesRead) {
      const length = RECORD_HEAD + run.readUInt32BE(at + 4);
      if (run.readUInt32BE(at) !== MAGIC || length < RECORD_HEAD + PAYLOAD_HEAD) return { records };
      if (at + length > bytesRead) break;
      const record = run.subarray(at, at + length);
      const offset = from.offset + at;
      records.push({
        hash: `0x${record.toString('hex', RECORD_HEAD, RECORD_HEAD + 32)}`,
        length,
        body() {
          if (!isIntact(record)) {
            throw new Error(`block record damaged at segment ${from.segment} offset ${offset}`);
          }
          return record.subarray(RECORD_HEAD + PAYLOAD_HEAD);
        },
      });
      at += length;
    }
    const offset = from.offset + at;
    return {
      records,
      next: offset < size ? { segment: from.segment, offset } : this.#after(from.segment, size),
    };
  }

  // Where reading on starts once `segment` (of `size` bytes) is read to its end; undefined past the log's end.
  #after(segment: number, size: number): LogPosition | undefined {
    if (segment >= this.#end.segment || size === 0) return undefined;
    return { segment: segment + 1, offset: 0 };
  }

  /**
   * Visit every intact record from `from` on, in order; returns where the intact log ends, which is
   * before the end of the files when the tail is torn or damaged.
   */
  async scan(from: LogPosition, visit: (record: ScannedRecord) => Promise<void>): Promise<LogPosition> {
    const head = Buffer.allocUnsafe(RECORD_HEAD);
    for (let segment = from.segment; segment <= this.#end.segment; segment++) {
      const size = (await this.segmentSize(segment)) ?? 0;
      const handle = await this.#reader(segment);
      let offset = segment === from.segment ? from.offset : 0;
      while (offset < size) {
        const torn = { segment, offset };
        if (offset + RECORD_HEAD > size) return torn;
        await handle.read(head, 0, RECORD_HEAD, offset);
        const length = RECORD_HEAD + head.readUInt32BE(4);
        if (head.readUInt32BE(0) !== MAGIC || length < RECORD_HEAD + PAYLOAD_HEAD || offset + length > size) {
          return torn;
        }
        const record = Buffer.allocUnsafe(length);
        await handle.read(record, 0, length, offset);
        if (!isIntact(record)) return torn;
        await visit({
          header: decodeHeader(record.subarray(RECORD_HEAD)),
          position: { segment, offset },
          length,
        });
        offset += length;
      }
      if (segment < this.#end.segment && offset !== size) return { segment, offset };
    }
    return this.end();
  }

  /** Cut the log at `position`: the rest of that segment and every later segment are removed. */
  async truncate(position: LogPosition): Promise<void> {
    for (const [segment, handle] of this.#readers) {
      if (segment >= position.segment) {
        await handle.close();
        this.#readers.delete(segment);
      }
    }
    await this.#writer.close();
    for (const segment of await listSegments(this.#dir)) {
      if (segment > position.segment) await rm(join(this.#dir, segmentName(segment)));
    }
    this.#writer = await open(join(this.#dir, segmentName(position.segment)), 'a+');
    await this.#writer.truncate(position.offset);
    await this.#writer.sync();
    this.#end = { ...position };
  }

  /** Close every file. */
  async close(): Promise<void> {
    for (const handle of this.#readers.values()) await handle.close();
    this.#readers.clear();
    await this.#writer.close();
  }

  async #reader(segment: number): Promise<FileHandle> {
    const cached = this.#readers.get(segment);
    if (cached !== undefined) {
      // Re-inserting keeps the map in least-recently-used order for the eviction below.
      this.#readers.delete(segment);
      this.#readers.set(segment, cached);
      return cached;
    }
    const handle = await open(join(this.#dir, segmentName(segment)), 'r');
    this.#readers.set(segment, handle);
    if (this.#readers.size > OPEN_READERS) {
      const [oldest, stale] = this.#readers.entries().next().value as [number, FileHandle];
      this.#readers.delete(oldest);
      await stale.close();
    }
    return handle;
  }
}

function comparePositions(a: LogPosition, b: LogPosition): number {
  return a.segment - b.segment || a.offset - b.offset;
}

function isIntact(record: Buffer): boolean {
  return record.readUInt32BE(0) === MAGIC && crc32(record.subarray(RECORD_HEAD)) === record.readUInt32BE(8);
}

async function listSegments(dir: string): Promise<number[]> {
  const names = await readdir(dir);
  return names
    .filter((name) => /^\d{6}\.seg$/.test(name))
    .map((name) => Number(name.slice(0, 6)))
    .sort((a, b) => a - b);
}
