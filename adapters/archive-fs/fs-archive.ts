import type { Low } from 'lowdb';
import type { BlockHeader } from '../../core/chain/block-header.js';
import { headerOfBlock, tryNormalizeBlockHash } from '../../core/chain/block-identity.js';
import type { NormalizedBlock } from '../../core/chain/block.js';
import { checkBlockPlacement } from '../../core/chain/block-placement.js';
import { applyBlockToChain, type ChainRules } from '../../core/chain/canonical-chain.js';
import { alreadyStored } from '../../core/chain/chain-update.js';
import type { ChainUpdate } from '../../core/chain/chain-update.js';
import type { BlockStore, ChainState, PutContext, QuarantinedBody } from '../../core/ports/block-store.js';
import { isStoreOutage, storeUnavailable } from '../../core/hooks/errors.js';
import {
  diskWriteFailure,
  isFileSystemError,
  type DiskSpaceReport,
} from '../../core/storage/write-failure.js';
import { ArchiveChainView } from './archive-chain-view.js';
import { readCanonicalRange } from './canonical-range.js';
import { decodeBlockRecord, encodeBlockRecord } from './block-record.js';
import type { ArchiveState, PendingCheckpoint } from './archive-state.js';
import type { CanonicalIndex } from './canonical-index.js';
import { commit, writePending } from './checkpoint.js';
import { SLOT_BYTES, encodeSlot } from './hash-index.js';
import type { HashIndex } from './hash-index.js';
import type { QuarantineFolder } from './quarantine-folder.js';
import { isBefore } from './record-log.js';
import type { LogPosition, RecordLog, ScannedRecord } from './record-log.js';

/** Tuning of the embedded archive; the defaults suit a full mainnet history. */
export type FsArchiveOptions = {
  /** Bytes per segment file before the next one starts; default 256 MiB. */
  segmentBytes?: number;
  /** Checkpoint once this many index entries changed; default 16384 (about 8000 blocks). Bounds the memory of the overlay. */
  checkpointEvery?: number;
  /** Checkpoint at the latest this long after a change; default 1000 ms. Bounds what a power cut loses. */
  checkpointAfterMs?: number;
  /** Bounds on held orphans (count and depth below the tip); the chain model's defaults when absent. */
  orphans?: Pick<ChainRules, 'maxHeldOrphans' | 'maxOrphanDepth'>;
  /** The most bytes of block records one range read takes in (at least one block); default 1 MiB. */
  rangeReadBytes?: number;
  /** Told of a full disk and of the next write that succeeds. */
  space?: DiskSpaceReport;
};

/** The options the archive runs with: every tuning set, the space report optional. */
export type FsArchiveSettings = Required<Omit<FsArchiveOptions, 'space'>> & Pick<FsArchiveOptions, 'space'>;

const STORE = 'block archive';

/** The chain as the last whole write left it: what the archive answers without queueing. */
type SettledChain = Omit<ChainState, 'quarantined'> & { tip: BlockHeader | undefined; blocks: number };

/** The embedded block archive: the BlockStore port plus explicit durability and shutdown. */
export type FsArchive = BlockStore & {
  /** The canonical blocks from `from` up to `to`, as many as `rangeReadBytes` of records hold (at least one), read as a range. */
  canonicalRange(from: number, to: number): Promise<(NormalizedBlock | undefined)[]>;
  /** Make every put so far durable now (a checkpoint). */
  sync(): Promise<void>;
  /** Checkpoint and close the files; every later call is refused. */
  close(): Promise<void>;
};

/** The archive's open files. */
export type ArchiveFiles = {
  state: Low<ArchiveState>;
  log: RecordLog;
  index: HashIndex;
  canonical: CanonicalIndex;
  quarantine: QuarantineFolder;
};

/**
 * The BlockStore over an archive folder; `openFsArchive` builds it after recovering the files.
 * Operations on the files run one at a time; the tip, the count and the chain state are answered
 * at once, as the last whole write left them.
 */
export class FsBlockArchive implements FsArchive {
  readonly #files: ArchiveFiles;
  readonly #view: ArchiveChainView;
  readonly #options: FsArchiveSettings;
  #blocks: number;
  #unreadableBlocks: number;
  #lastReceivedAt: number | null;
  /** Just past the last record the view knows; the next checkpoint covers the log up to here. */
  #indexedEnd: LogPosition;
  #queue: Promise<unknown> = Promise.resolve();
  #settled: SettledChain;
  #timer: NodeJS.Timeout | undefined;
  /** A failure that left the in-memory state unknown: every later call reports it; reopening recovers. */
  #failure: Error | undefined;
  #closed = false;

  constructor(files: ArchiveFiles, options: FsArchiveSettings) {
    const { checkpoint } = files.state.data;
    this.#files = files;
    this.#options = options;
    this.#view = new ArchiveChainView(files.index, files.canonical, checkpoint);
    this.#blocks = checkpoint.blocks;
    this.#unreadableBlocks = checkpoint.unreadableBlocks ?? 0;
    this.#lastReceivedAt = checkpoint.lastReceivedAt ?? null;
    this.#indexedEnd = checkpoint.logEnd;
    this.#settled = this.#settle();
  }

  put(block: NormalizedBlock, context: PutContext = {}): Promise<ChainUpdate> {
    return this.#serial(async () => {
      const header = headerOfBlock(block);
      if ((await this.#view.slot(header.hash)) !== undefined) return alreadyStored();
      // Refused before anything is written, so a rejected block never reaches the log.
      await checkBlockPlacement(this.#view, header);
      const stored: NormalizedBlock = {
        ...block,
        block_identifier: { ...block.block_identifier, hash: header.hash },
        parent_block_identifier: { ...block.parent_block_identifier, hash: header.parent_hash },
      };
      let appended: { position: LogPosition; length: number };
      try {
        appended = await this.#files.log.append(header, encodeBlockRecord(stored));
      } catch (err) {
        // The log is as it was (what the write left is cut off): nothing of the block is kept.
        throw diskWriteFailure(err, STORE, this.#options.space);
      }
      this.#options.space?.wrote(STORE);
      return this.#guard(async () => {
        const at = context.receivedAt ?? Date.now();
        if ((block.unreadable_transactions?.length ?? 0) > 0) this.#unreadableBlocks++;
        this.#lastReceivedAt = Math.max(this.#lastReceivedAt ?? at, at);
        const update = await this.#index({ header, ...appended }, at);
        this.#settled = this.#settle();
        return update;
      });
    });
  }

  getByHash(hash: string): Promise<NormalizedBlock | undefined> {
    return this.#serial(() => this.#read(hash));
  }

  getCanonicalAt(height: number): Promise<NormalizedBlock | undefined> {
    return this.#serial(async () => {
      if (!Number.isSafeInteger(height) || height < 0) return undefined;
      const hash = await this.#view.canonicalHashAt(height);
      return hash === undefined ? undefined : this.#read(hash);
    });
  }

  canonicalRange(from: number, to: number): Promise<(NormalizedBlock | undefined)[]> {
    return this.#serial(() =>
      readCanonicalRange(this.#view, this.#files.log, from, to, this.#options.rangeReadBytes),
    );
  }

  // The tip, the count and the chain's health are answered from memory, as the last whole write
  // left them, not queued: a backfill's range reads and a checkpoint's fsyncs hold the queue, and
  // the status route and a scan's next step ask for them all the time.
  tip(): Promise<BlockHeader | undefined> {
    return this.#settledRead(() => this.#settled.tip);
  }

  isCanonical(hash: string): Promise<boolean> {
    return this.#serial(async () => {
      const normalized = tryNormalizeBlockHash(hash);
      const header = normalized === undefined ? undefined : await this.#view.header(normalized);
      return header !== undefined && (await this.#view.canonicalHashAt(header.height)) === header.hash;
    });
  }

  count(): Promise<number> {
    return this.#settledRead(() => this.#settled.blocks);
  }

  quarantine(body: QuarantinedBody): Promise<void> {
    return this.#serial(() =>
      this.#files.quarantine.add(body).catch((err: unknown) => {
        throw diskWriteFailure(err, STORE, this.#options.space);
      }),
    );
  }

  async chainState(recent = 10): Promise<ChainState> {
    const { tip: _tip, blocks: _blocks, ...chain } = await this.#settledRead(() => this.#settled);
    // Each quarantined body is its own file, written whole under a temporary name: read beside a write.
    const { quarantine } = this.#files;
    return {
      ...chain,
      gaps: [...chain.gaps],
      quarantined: { count: quarantine.count, recent: await quarantine.recent(recent) },
    };
  }

  sync(): Promise<void> {
    return this.#serial(() => this.#guard(() => this.#checkpoint()));
  }

  close(): Promise<void> {
    // Not through #serial: a failed archive must still release its files, and closing twice is a no-op.
    const run = this.#queue.then(async () => {
      if (this.#closed) return;
      this.#closed = true;
      clearTimeout(this.#timer);
      try {
        if (this.#failure === undefined) await this.#checkpoint();
      } finally {
        await closeArchiveFiles(this.#files);
      }
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Index the records after the last checkpoint (a crash lost their overlay) and cut a torn tail. */
  replayLog(from: LogPosition): Promise<void> {
    // Queued like any operation, so a checkpoint timer firing meanwhile cannot interleave with it.
    return this.#serial(() =>
      this.#guard(async () => {
        // The records' arrival times are not in the log: gaps they open are stamped with now.
        const intactEnd = await this.#files.log.scan(from, async (record) => {
          await this.#index(record, Date.now());
        });
        if (isBefore(intactEnd, this.#files.log.end())) await this.#files.log.truncate(intactEnd);
        this.#settled = this.#settle();
        await this.#checkpoint();
      }),
    );
  }

  async #index({ header, position, length }: ScannedRecord, at: number): Promise<ChainUpdate> {
    this.#view.addSlot({ ...header, ...position, length, connected: false });
    this.#blocks++;
    this.#indexedEnd = { segment: position.segment, offset: position.offset + length };
    const update = await applyBlockToChain(this.#view, header, { ...this.#options.orphans, at });
    if (this.#view.changedSlots.size + this.#view.changedCanonical.size >= this.#options.checkpointEvery) {
      // The block is in the log already: a checkpoint the disk refuses is tried again by the timer.
      await this.#checkpoint().catch((err: unknown) => {
        if (!isStoreOutage(err)) throw err;
      });
    } else this.#checkpointSoon();
    return update;
  }

  #checkpointSoon(): void {
    // Unreferenced: an exiting process loses nothing, because the log already holds every record.
    this.#timer ??= setTimeout(
      () => void this.sync().catch(() => undefined),
      this.#options.checkpointAfterMs,
    );
    this.#timer.unref();
  }

  /**
   * Log first, then the index changes as a redo record in the state file, then the index files, then
   * the state naming the new checkpoint. A crash before the redo record loses only the overlay, which
   * the log replays; a crash after it is finished by redoing the writes on open.
   */
  async #checkpoint(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (!this.#view.dirty) return;
    await this.#files.log.sync();
    const slots = Buffer.alloc(this.#view.changedSlots.size * SLOT_BYTES);
    let at = 0;
    for (const slot of this.#view.changedSlots.values())
      encodeSlot(slot, slots, (at += SLOT_BYTES) - SLOT_BYTES);
    const tip = (await this.#view.tip()) ?? null;
    const pending: PendingCheckpoint = {
      logEnd: this.#indexedEnd,
      tip,
      blocks: this.#blocks,
      orphans: this.#view.orphans(),
      gaps: await this.#view.gaps(),
      unreadableBlocks: this.#unreadableBlocks,
      lastReceivedAt: this.#lastReceivedAt,
      slots: slots.toString('base64'),
      canonical: [...this.#view.changedCanonical],
    };
    try {
      this.#files.state.data.pending = pending;
      await this.#files.state.write();
      await writePending(this.#files, pending);
      await commit(this.#files.state, pending);
    } catch (err) {
      if (!isFileSystemError(err)) throw err;
      // Each step is written again from the overlay, which is whole: the next checkpoint redoes them.
      this.#checkpointSoon();
      throw diskWriteFailure(err, STORE, this.#options.space);
    }
    this.#view.checkpointed();
    this.#options.space?.wrote(STORE);
  }

  async #read(hash: string): Promise<NormalizedBlock | undefined> {
    const normalized = tryNormalizeBlockHash(hash);
    const slot = normalized === undefined ? undefined : await this.#view.slot(normalized);
    if (slot === undefined) return undefined;
    const body = await this.#files.log.read({ segment: slot.segment, offset: slot.offset }, slot.length);
    return decodeBlockRecord(body);
  }

  /**
   * Run `work`; if it fails midway the overlay may be half-changed, so the archive stops until
   * reopened, and says so as `storeUnavailable` (block processing waits rather than skip blocks). A
   * checkpoint the disk refused is not such a failure: the overlay is whole and it is tried again.
   */
  async #guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (isStoreOutage(err)) throw err;
      this.#failure = Object.assign(
        storeUnavailable(
          `the block archive failed and must be reopened (restart the service): ${(err as Error).message}`,
        ),
        { cause: err },
      );
      clearTimeout(this.#timer);
      throw this.#failure;
    }
  }

  #settle(): SettledChain {
    const { tip, gaps, heldOrphans } = this.#view.current();
    return {
      tip,
      blocks: this.#blocks,
      gaps,
      heldOrphans,
      unreadableBlocks: this.#unreadableBlocks,
      lastReceivedAt: this.#lastReceivedAt,
    };
  }

  /** A read of the settled chain, refused as a queued call would be (closed, or failed until reopened). */
  async #settledRead<T>(read: () => T): Promise<T> {
    if (this.#closed) throw new Error('the block archive is closed');
    if (this.#failure !== undefined) throw this.#failure;
    return read();
  }

  /** One operation at a time: the chain model's read-modify-write steps must not interleave. */
  #serial<T>(operation: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(() => {
      if (this.#closed) throw new Error('the block archive is closed');
      if (this.#failure !== undefined) throw this.#failure;
      return operation();
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }
}

/** Close the log and the index files. */
export async function closeArchiveFiles(files: Omit<ArchiveFiles, 'state' | 'quarantine'>): Promise<void> {
  await files.log.close();
  await files.index.close();
  await files.canonical.close();
}
