import { join } from 'node:path';
import type { DiskSpaceReport } from '../../core/storage/write-failure.js';
import { FileJournal } from './file-journal.js';
import { FileRemovals } from './file-removals.js';
import { JournaledOutbox } from './journaled-outbox.js';
import { OutboxState, type OutboxOptions } from './outbox-state.js';
import { PayloadSegments } from './payload-segments.js';
import { DEFAULT_BODY_CACHE_BYTES, SegmentPayloads } from './payload-store.js';
import { SentOnDisk } from './sent-on-disk.js';
import { SegmentSettlements } from './settlement-store.js';

/** Options of the file outbox. */
export type FsOutboxOptions = OutboxOptions & {
  /** Compact once the journal grows past this many bytes (default 64 MiB; see `FileJournal`). */
  compactAtBytes?: number;
  /** Pending payloads each hook keeps in memory (default 32); the rest of its queue waits on disk. */
  pendingInMemoryPerHook?: number;
  /** Bodies of recently queued payloads kept in memory, as JSON bytes (default 16 MiB). */
  bodyCacheBytes?: number;
  /** A compaction encodes and writes its snapshot in slices about this big (default 256 KiB). */
  snapshotSliceBytes?: number;
  /** Size at which a payload segment is closed and the next one started (default 64 MiB). */
  segmentBytes?: number;
  /** Told of a full disk and of the next write that succeeds. */
  space?: DiskSpaceReport;
};

const DEFAULT_COMPACT_AT_BYTES = 64 * 1024 * 1024;
/** Enough for a hook that keeps up to be sent from memory; past it, its queue waits on disk. */
export const DEFAULT_PENDING_IN_MEMORY_PER_HOOK = 32;
const DEFAULT_SEGMENT_BYTES = 64 * 1024 * 1024;
/**
 * Settlement records and sent blocks' records are small and let go of oldest first: smaller
 * segments follow their retention closely.
 */
const SETTLEMENT_SEGMENT_BYTES = 8 * 1024 * 1024;

/**
 * The durable outbox: the memory state machine, rebuilt on open from its journal (`FileJournal`),
 * and every change made durable there before the call resolves. Payloads are written to payload
 * segments (`payloads/`, a block they share once per segment), settled log entries to settlement
 * segments (`settled/`), the blocks sent to hooks past the newest few to records of their own
 * (`sent/`); memory holds each hook's first pending payloads, the rest of a long
 * queue as 33 bytes a payload, each settled payload as 54 bytes, and a bounded cache of recent
 * bodies. Reads answer from memory (or a synchronous read of a record) at once, so they may show
 * a change whose fsync is still under way (a delivery of it is at-least-once anyway).
 */
export class FsOutbox extends JournaledOutbox {
  private constructor(
    state: OutboxState,
    private readonly file: FileJournal,
    private readonly payloads: SegmentPayloads,
  ) {
    super(state, file);
  }

  /** Open (or create) the outbox in `dir`: replay the newest journal, cutting off a torn tail. */
  static async open(dir: string, options: FsOutboxOptions = {}): Promise<FsOutbox> {
    // One at a time across the outbox's folders: each removal's pace is then the disk's whole load.
    const removals = new FileRemovals();
    const segments = await PayloadSegments.open(
      join(dir, 'payloads'),
      options.segmentBytes ?? DEFAULT_SEGMENT_BYTES,
      removals,
    );
    const settled = await PayloadSegments.open(
      join(dir, 'settled'),
      Math.min(options.segmentBytes ?? SETTLEMENT_SEGMENT_BYTES, SETTLEMENT_SEGMENT_BYTES),
      removals,
    );
    const sent = await PayloadSegments.open(join(dir, 'sent'), SETTLEMENT_SEGMENT_BYTES, removals);
    const payloads = new SegmentPayloads(segments, options.bodyCacheBytes ?? DEFAULT_BODY_CACHE_BYTES);
    const window = options.pendingInMemoryPerHook ?? DEFAULT_PENDING_IN_MEMORY_PER_HOOK;
    const state = new OutboxState(
      payloads,
      window,
      options,
      new SegmentSettlements(settled),
      new SentOnDisk(sent),
    );
    const compactAt = options.compactAtBytes ?? DEFAULT_COMPACT_AT_BYTES;
    const file = await FileJournal.open(dir, state, {
      compactAtBytes: compactAt,
      segments: [segments, settled, sent],
      space: options.space,
      sliceBytes: options.snapshotSliceBytes,
      removals,
    });
    const outbox = new FsOutbox(state, file, payloads);
    await outbox.settleToDisk();
    return outbox;
  }

  /**
   * What the outbox holds in memory now: payloads as entries (each hook's first pending ones, and
   * the one in flight), pending payloads kept on disk only (33 bytes each), settled payloads kept
   * on disk only (54 bytes each), blocks sent to hooks (the newest; older ones are on disk), and
   * bytes of cached bodies.
   */
  inMemory(): {
    entries: number;
    coldPayloads: number;
    settledPayloads: number;
    sentBlocks: number;
    cachedBodyBytes: number;
  } {
    return { ...this.state.footprint(), cachedBodyBytes: this.payloads.cachedBytes };
  }

  /** Finish pending writes and close the journal; the outbox refuses changes afterwards. */
  close(): Promise<void> {
    return this.file.close();
  }
}

/** Open (or create) a file outbox in `dir`. */
export function openFsOutbox(dir: string, options?: FsOutboxOptions): Promise<FsOutbox> {
  return FsOutbox.open(dir, options);
}
