import { constants, fdatasyncSync, writeSync } from 'node:fs';
import { mkdir, open, readdir, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { EventLog, EventLogPosition, RawEvent } from '../../core/ports/event-log.js';
import { writeAll, writeAllSync } from '../../core/storage/write-all.js';
import { diskWriteFailure, type DiskSpaceReport } from '../../core/storage/write-failure.js';
import { RECORD_HEADER_BYTES, intactLength, readRecords, sealRecord } from './segment-file.js';
import { readCheckpoint, writeCheckpoint } from './processed-mark.js';
import { NextSegment } from './next-segment.js';
import { syncFolder } from './sync-folder.js';

/** A segment is closed and a new one begun past this size, so recovery scans at most one segment. */
const SEGMENT_BYTES = 64 * 1024 * 1024;
/** Segments are opened to write at a position: an append-mode file would ignore it. */
const READ_WRITE = constants.O_RDWR | constants.O_CREAT;

type Pending = {
  path: string;
  body: string;
  receivedAt: number;
  resolve: (id: number) => void;
  reject: (err: unknown) => void;
};

/** Options of the file event log. */
export type FsEventLogOptions = {
  /** Told of a full disk and of the next write that succeeds. */
  space?: DiskSpaceReport;
  /**
   * Write and sync with blocking calls, for a thread that does nothing else (the observer's own):
   * its appends then never queue behind the process's other file work in libuv's shared pool of
   * four threads, which a checkpoint's parallel fsyncs can fill for tens of milliseconds.
   */
  blockingWrites?: boolean;
  /** Bytes a segment holds before the next begins (64 MiB); smaller only to try rolling in tests. */
  segmentBytes?: number;
};

const STORE = 'event log';
type Segment = { firstId: number; path: string };

/**
 * Frame an entry as one record, its payload `id \t received_at \t path \t body` (the event-replay
 * TSV line layout), written straight into the record's buffer: a body of tens of megabytes is
 * copied once here, not once for the text, once for the bytes and once for the frame.
 */
function frameEntry(event: RawEvent): Buffer {
  const head = `${event.id}\t${event.received_at}\t${event.path}\t`;
  const headBytes = Buffer.byteLength(head);
  const record = Buffer.allocUnsafe(RECORD_HEADER_BYTES + headBytes + Buffer.byteLength(event.body));
  record.write(head, RECORD_HEADER_BYTES);
  record.write(event.body, RECORD_HEADER_BYTES + headBytes);
  return sealRecord(record);
}

function decode(payload: Buffer): RawEvent {
  const text = payload.toString('utf8');
  const a = text.indexOf('\t');
  const b = text.indexOf('\t', a + 1);
  const c = text.indexOf('\t', b + 1);
  return {
    id: Number(text.slice(0, a)),
    received_at: Number(text.slice(a + 1, b)),
    path: text.slice(b + 1, c),
    body: text.slice(c + 1),
  };
}

/** The segment files of `dir`, oldest first. */
async function listSegments(dir: string): Promise<Segment[]> {
  return (await readdir(dir))
    .filter((n) => /^\d{20}\.log$/.test(n))
    .sort()
    .map((n) => ({ firstId: Number(n.slice(0, 20)), path: join(dir, n) }));
}

function segmentName(firstId: number): string {
  return `${String(firstId).padStart(20, '0')}.log`;
}

/**
 * The raw event log on disk: append-only segment files of checksummed records. Appends that arrive
 * together share one write and one fsync (group commit); each resolves after its fsync. A write or
 * fsync that fails (a full disk) rejects its appends and cuts the file back to the last acknowledged
 * record before anything else is appended, so no torn record ever hides later ones; ids are given
 * only to records that were written, so they stay dense. Segments are written full of zeros ahead
 * of need (see `NextSegment`), so most appends overwrite zeros and the records end where a zero
 * header begins.
 */
export class FsEventLog implements EventLog {
  private queue: Pending[] = [];
  private flushing: Promise<void> | undefined;
  private cursor: { afterId: number; segment: number; offset: number } | undefined;
  private checkpointWrite: Promise<void> = Promise.resolve();
  /** A failed write may have left bytes past `size` that are still to be cut off. */
  private torn = false;
  /** Another writer appends to this folder (the observer's own thread): this instance only reads. */
  private appendedElsewhere = false;
  /** How far the current segment's file reaches: past `size`, the zeros written ahead. */
  private allocated: number;
  private readonly next: NextSegment;

  private constructor(
    private readonly dir: string,
    private readonly segments: Segment[],
    private handle: FileHandle,
    private size: number,
    private nextId: number,
    private processed: number,
    private note: string | undefined,
    private newest: { id: number; received_at: number } | undefined,
    private readonly space: DiskSpaceReport | undefined,
    private readonly blockingWrites: boolean,
    private readonly segmentBytes: number,
  ) {
    this.allocated = size;
    this.next = new NextSegment(dir, segmentBytes);
  }

  /** Open (or create) the log in `dir`, cutting off a torn tail a crash left behind. */
  static async open(dir: string, options: FsEventLogOptions = {}): Promise<FsEventLog> {
    await mkdir(dir, { recursive: true });
    const segments = await listSegments(dir);
    if (segments.length === 0) segments.push({ firstId: 1, path: join(dir, segmentName(1)) });
    const last = segments[segments.length - 1];
    const { handle, intact } = await openTail(last.path);
    await NextSegment.clear(dir);
    const lastEntry = intact.lastPayload ? decode(intact.lastPayload) : undefined;
    const nextId = lastEntry ? lastEntry.id + 1 : last.firstId;
    const checkpoint = await readCheckpoint(dir);
    return new FsEventLog(
      dir,
      segments,
      handle,
      intact.length,
      nextId,
      checkpoint.processed,
      checkpoint.note,
      lastEntry && { id: lastEntry.id, received_at: lastEntry.received_at },
      options.space,
      options.blockingWrites ?? false,
      options.segmentBytes ?? SEGMENT_BYTES,
    );
  }

  /**
   * Append one entry; resolves with its id once fsync says it is on disk, and rejects with
   * `storeUnavailable` when it could not be written (nothing of it is kept then).
   */
  append(path: string, body: string, receivedAt: number): Promise<number> {
    if (this.appendedElsewhere)
      return Promise.reject(
        new Error('this event log is appended to by the observer thread; post the event to the observer'),
      );
    return new Promise((resolve, reject) => {
      this.queue.push({ path, body, receivedAt, resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  /** The id of the newest entry on disk. */
  lastId(): number {
    return this.nextId - 1;
  }

  /**
   * Hand appending over to another writer of this folder (true), or take it back once that writer
   * has closed (false). Two writers would give the same ids to different entries.
   */
  async appendElsewhere(elsewhere: boolean): Promise<void> {
    if (elsewhere) {
      this.appendedElsewhere = true;
      while (this.flushing) await this.flushing;
      await this.next.stop();
      return;
    }
    // The other writer may have begun segments and cut a torn tail: continue from what is on disk.
    const segments = await listSegments(this.dir);
    const last = segments[segments.length - 1] ?? this.segments[this.segments.length - 1];
    await this.handle.close().catch(() => undefined);
    const { handle, intact } = await openTail(last.path);
    await NextSegment.clear(this.dir);
    this.segments.splice(0, this.segments.length, ...(segments.length > 0 ? segments : [last]));
    this.handle = handle;
    this.size = intact.length;
    this.allocated = intact.length;
    this.cursor = undefined;
    if (intact.lastPayload) {
      const newest = decode(intact.lastPayload);
      this.follow({ id: newest.id, received_at: newest.received_at });
    }
    this.appendedElsewhere = false;
  }

  /**
   * Take note of entries another writer appended to this folder and made durable (the observer's
   * own thread): reads go up to the newest of them. This instance must not append meanwhile.
   */
  follow(newest: { id: number; received_at: number }): void {
    if (newest.id < this.nextId) return;
    this.nextId = newest.id + 1;
    this.newest = { id: newest.id, received_at: newest.received_at };
  }

  /**
   * Up to `limit` entries after `afterId`, in order; sequential reads continue where the last
   * stopped. Only acknowledged entries are read: a record another writer has written but not yet
   * synced may still be cut, and its id given to another body.
   */
  async readAfter(afterId: number, limit: number): Promise<RawEvent[]> {
    await this.flushing;
    const last = this.lastId();
    const out: RawEvent[] = [];
    let position = this.cursor?.afterId === afterId ? this.cursor : this.locate(afterId);
    let end = position.afterId >= last;
    while (!end && out.length < limit && position.segment < this.segments.length) {
      const segment = this.segments[position.segment];
      const handle = await open(segment.path, 'r');
      try {
        const { size } = await handle.stat();
        for await (const record of readRecords(handle, position.offset, size)) {
          const event = decode(record.payload);
          if (event.id > last) break;
          position = { afterId: event.id, segment: position.segment, offset: record.next };
          if (event.id > afterId) out.push(event);
          if (out.length >= limit || event.id === last) break;
        }
      } finally {
        await handle.close();
      }
      end = position.afterId >= last;
      if (end || out.length >= limit) break;
      if (position.segment === this.segments.length - 1 && !(await this.findNewSegments())) break;
      position = { afterId: position.afterId, segment: position.segment + 1, offset: 0 };
    }
    this.cursor = position;
    return out;
  }

  /** The last processed id, as last recorded. */
  async processedId(): Promise<number> {
    return this.processed;
  }

  /** The note saved with the last processed mark. */
  async processedNote(): Promise<string | undefined> {
    return this.note;
  }

  /** Record progress; the checkpoint file is replaced atomically (temp file, then rename). */
  markProcessed(id: number, note?: string): Promise<void> {
    // A mark behind the last one leaves its note too: the note tells the state at the newest mark.
    if (note !== undefined && id >= this.processed) this.note = note;
    this.processed = Math.max(this.processed, id);
    const processed = this.processed;
    const saved = this.note;
    this.checkpointWrite = this.checkpointWrite
      .catch(() => undefined)
      .then(() => writeCheckpoint(this.dir, processed, saved))
      .then(
        () => this.space?.wrote(STORE),
        (err: unknown) => {
          throw diskWriteFailure(err, STORE, this.space);
        },
      );
    return this.checkpointWrite;
  }

  /** The newest entry on disk and the processed mark. */
  async position(): Promise<EventLogPosition> {
    return { newest: this.newest && { ...this.newest }, processed: this.processed };
  }

  /** Finish pending appends and close the file. */
  async close(): Promise<void> {
    while (this.flushing) await this.flushing;
    await this.next.stop();
    await this.checkpointWrite;
    await this.handle.close();
  }

  // Segments another writer began since this instance listed them; true when there are any.
  private async findNewSegments(): Promise<boolean> {
    const known = this.segments[this.segments.length - 1].firstId;
    const found = (await listSegments(this.dir)).filter((segment) => segment.firstId > known);
    this.segments.push(...found);
    return found.length > 0;
  }

  // Where reading after `afterId` starts: the segment whose first id is the next one or before it.
  private locate(afterId: number): { afterId: number; segment: number; offset: number } {
    let index = 0;
    for (let i = 0; i < this.segments.length; i++) if (this.segments[i].firstId <= afterId + 1) index = i;
    return { afterId: this.segments[index].firstId - 1, segment: index, offset: 0 };
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      try {
        await this.cutTornTail();
        const records = batch.map((p, i) =>
          frameEntry({ id: this.nextId + i, received_at: p.receivedAt, path: p.path, body: p.body }),
        );
        const bytes = records.length === 1 ? records[0] : Buffer.concat(records);
        if (this.rollsBefore(bytes.length)) await this.roll(this.nextId);
        this.torn = true;
        if (this.blockingWrites) {
          const fd = this.handle.fd;
          writeAllSync((b, offset, length, at) => writeSync(fd, b, offset, length, at), bytes, this.size);
          fdatasyncSync(fd);
        } else {
          await writeAll(this.handle, bytes, this.size);
          await this.handle.datasync();
        }
        this.torn = false;
        // Bookkept from what reached the disk, so a later cut never leaves zeros or half a record.
        this.size += bytes.length;
        this.allocated = Math.max(this.allocated, this.size);
        const first = this.nextId;
        this.nextId += batch.length;
        this.newest = { id: this.nextId - 1, received_at: batch[batch.length - 1].receivedAt };
        this.space?.wrote(STORE);
        batch.forEach((p, i) => p.resolve(first + i));
        this.prepareAhead();
      } catch (err) {
        // Part of the batch may be in the file: it is cut off now, or before the next write.
        await this.cutTornTail().catch(() => undefined);
        const failure = diskWriteFailure(err, STORE, this.space);
        for (const p of batch) p.reject(failure);
      }
    }
    this.flushing = undefined;
  }

  /**
   * Cut the file back to its last acknowledged record after a failed write; throws while it cannot.
   * The zeros written ahead go with the torn bytes: a shorter record written over them later could
   * leave a whole unacknowledged one behind it.
   */
  private async cutTornTail(): Promise<void> {
    if (!this.torn) return;
    await this.handle.truncate(this.size);
    this.allocated = this.size;
    this.torn = false;
  }

  /**
   * A batch that fits in the zeros written ahead stays; one that does not begins a new segment when
   * this one is full, or early when a zero-filled one is ready and this one has none left.
   */
  private rollsBefore(batchBytes: number): boolean {
    const end = this.size + batchBytes;
    if (this.size === 0 || end <= this.allocated) return false;
    return end > this.segmentBytes || this.next.ready;
  }

  // Filling starts once half of the current segment's zeros are used, or once a segment that has
  // none (the first, or one reopened) holds a sixteenth of a segment, so small logs never fill one.
  private prepareAhead(): void {
    if (this.size >= this.allocated - this.segmentBytes / 2 && this.size >= this.segmentBytes / 16)
      this.next.begin();
  }

  // The new segment is opened before the old one is let go, so a failure leaves the log as it was.
  // The folder is synced before anything in it is acknowledged: an append that overwrites zeros
  // syncs no size or allocation, and not the new file's name either.
  private async roll(firstId: number): Promise<void> {
    const segment = { firstId, path: join(this.dir, segmentName(firstId)) };
    await this.next.take(segment.path);
    const handle = await open(segment.path, READ_WRITE);
    try {
      await syncFolder(this.dir);
      this.allocated = (await handle.stat()).size;
    } catch (err) {
      await handle.close().catch(() => undefined);
      throw err;
    }
    await this.handle.close().catch(() => undefined);
    this.segments.push(segment);
    this.handle = handle;
    this.size = 0;
  }
}

/** Open the newest segment to write, cut back to its intact records (a torn tail, unused zeros). */
async function openTail(
  path: string,
): Promise<{ handle: FileHandle; intact: { length: number; lastPayload?: Buffer } }> {
  const handle = await open(path, READ_WRITE);
  try {
    const intact = await intactLength(path);
    if ((await handle.stat()).size > intact.length) await handle.truncate(intact.length);
    return { handle, intact };
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
}
