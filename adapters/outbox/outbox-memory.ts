import type { OutgoingPayload } from '../../core/ports/delivery-queue.js';
import { ColdRun, type ColdRunSnapshot } from './cold-run.js';
import { insertByAge } from './delivery-log.js';
import { HookHeads, type HookQueue } from './hook-heads.js';
import { newHookLog, type HookLog } from './hook-log.js';
import { LogReader } from './log-reader.js';
import { HashCounts } from './hash-counts.js';
import { DeliveredBodies } from './log-retention.js';
import { metaOf, NO_ATTEMPTS, type OutboxEntry, type PayloadMeta } from './outbox-entry.js';
import type { Locator } from './payload-segments.js';
import type { PayloadStore } from './payload-store.js';
import { SENT_BLOCKS_PER_HOOK, SentApplies, type SentMove } from './sent-applies.js';
import type { SentOnDisk } from './sent-on-disk.js';
import type { SentInstant } from './sent-instant.js';
import type { SettledChunk, SettledView } from './settled-run.js';
import type { SettlementStore } from './settlement-store.js';

/** Options both outboxes take. */
export type OutboxOptions = {
  /** How long a delivered payload's body is kept for a redelivery, in ms (default one hour). */
  keepDeliveredBodiesMs?: number;
  /**
   * Blocks remembered per hook in memory for rollbacks (default 10,000; see `SENT_BLOCKS_PER_HOOK`);
   * the file outbox keeps only the newest few blocks in memory, the older ones on disk.
   */
  sentBlocksPerHook?: number;
};

const HOUR_MS = 60 * 60 * 1000;

/**
 * What the outbox holds in memory, and the small steps every change is made of: the entries by id,
 * each hook's log, queue and runs on disk, the heads by due time, the sent blocks; how an entry
 * comes into memory and goes; the views a compaction snapshot takes and the restores that replay
 * it. `SettledLog` adds how settled payloads leave memory, `OutboxState` the changes themselves.
 */
export class OutboxMemory {
  protected readonly entries = new Map<string, OutboxEntry>();
  protected readonly hooks = new Map<string, HookLog>();
  protected readonly heads = new HookHeads();
  protected readonly sent: SentApplies;
  protected readonly deliveredBodies = new DeliveredBodies();
  protected readonly keepDeliveredBodiesMs: number;
  protected readonly reader: LogReader;
  /** The id hashes of the settled payloads on disk, to tell at once that an id is not among them. */
  protected readonly settledHashes = new HashCounts();
  /** Settled entries still in memory, to leave it at the next `settleToDisk`. */
  protected readonly settledInMemory = new Set<OutboxEntry>();
  protected nextSeq = 0;
  /** Told before an entry in memory changes (see `watchChanges`). */
  protected beforeChange: ((entry: Readonly<OutboxEntry>) => void) | undefined;
  /**
   * The latest time the outbox has been told of (creation, attempt, redelivery). The body grace
   * period runs on it instead of the wall clock, so a journal replay lets go of the same bodies.
   */
  protected seen = 0;

  constructor(
    protected readonly store: PayloadStore,
    /** Pending payloads a hook keeps in memory; the rest of its queue waits on disk. */
    protected readonly window: number,
    options: OutboxOptions = {},
    /** Where settled entries go when they leave memory; without it they stay (the memory outbox). */
    protected readonly settlements?: SettlementStore,
    /** Where sent blocks go past the newest few; without it they stay (the memory outbox). */
    private readonly sentOnDisk?: SentOnDisk,
  ) {
    this.keepDeliveredBodiesMs = options.keepDeliveredBodiesMs ?? HOUR_MS;
    this.reader = new LogReader(store, settlements);
    this.sent = new SentApplies(options.sentBlocksPerHook ?? SENT_BLOCKS_PER_HOOK, sentOnDisk);
  }

  /** The whole payload of an entry in memory, body included, when it is still kept. */
  payloadOf(entry: Readonly<OutboxEntry>): OutgoingPayload | undefined {
    return entry.loc && { ...metaOf(entry.meta), body: this.store.body(entry.meta.id, entry.loc) };
  }

  /** Every entry in memory in the order it came into memory, read-only: for snapshots and test views. */
  entriesInOrder(): IterableIterator<Readonly<OutboxEntry>> {
    return this.entries.values();
  }

  /** Every hook's pending ids in memory, in delivery order, and those parked in its pending cold run. */
  *pendingQueues(): Generator<[string, string[], string[]]> {
    for (const hook of this.hooks.values())
      if (hook.pending.length > 0 || hook.parked.size > 0)
        yield [hook.uuid, hook.pending.toArray(), [...hook.parked]];
  }

  /** Every hook's cold runs, oldest first. */
  *coldRuns(): Generator<[string, ColdRunSnapshot]> {
    for (const hook of this.hooks.values()) for (const run of hook.cold) yield [hook.uuid, run.snapshot()];
  }

  /** The blocks each hook was sent in live applies, as they are now, to be read while they change (until `thawSent`). */
  freezeSent(): SentInstant {
    return this.sent.freeze();
  }

  /** Every hook's settled run, as it is now (kept so for the snapshot). */
  *settledRuns(): Generator<[string, SettledView]> {
    for (const hook of this.hooks.values())
      if (hook.settled.length > 0) yield [hook.uuid, hook.settled.share()];
  }

  /**
   * How many payloads the state holds as entries in memory, as cold payloads (33 bytes each) and as
   * settled payloads on disk (54 bytes each), and how many blocks sent to hooks it holds in memory.
   */
  footprint(): { entries: number; coldPayloads: number; settledPayloads: number; sentBlocks: number } {
    let coldPayloads = 0;
    let settledPayloads = 0;
    for (const hook of this.hooks.values()) {
      for (const run of hook.cold) coldPayloads += run.length;
      settledPayloads += hook.settled.length;
    }
    return {
      entries: this.entries.size,
      coldPayloads,
      settledPayloads,
      sentBlocks: this.sent.blocksInMemory,
    };
  }

  /**
   * Have `listener` told before any entry in memory changes (undefined: no one): a compaction
   * encoding a snapshot while the outbox runs keeps the entries it has not encoded yet as they were.
   */
  watchChanges(listener: ((entry: Readonly<OutboxEntry>) => void) | undefined): void {
    this.beforeChange = listener;
  }

  /** Every sent block on disk and where its records are, oldest first, as they are now (a copy). */
  sentBlocksOnDisk(): [string, Locator[]][] {
    return this.sentOnDisk?.snapshot() ?? [];
  }

  /** Write the sent blocks that go to disk now; the moves, for the journal to name. */
  sentToDisk(): SentMove[] {
    return this.sent.spill();
  }

  /** Replay: a sent block's records on disk changed as `sentToDisk` did it. */
  sentMovedToDisk(hash: string, loc: Locator | null, replace: boolean): void {
    this.sent.movedToDisk(hash, loc, replace);
  }

  /** Snapshot restore: a sent block's records on disk, after the blocks restored before it. */
  restoreSentOnDisk(hash: string, locs: readonly Locator[]): void {
    this.sentOnDisk?.restore(hash, locs);
  }

  /** Let go of the view `freezeSent` took. */
  thawSent(): void {
    this.sent.thaw();
  }

  /** The outbox's notion of now. */
  get clock(): number {
    return this.seen;
  }

  /** Snapshot restore: the clock. */
  restoreClock(seen: number): void {
    this.see(seen);
  }

  /**
   * Snapshot restore: one entry as it was (its pending place comes from `restoreQueue`); `body`
   * for an entry from a journal written before payload records, which is stored now.
   */
  restoreEntry(entry: OutboxEntry, body?: OutgoingPayload['body']): void {
    if (body) entry.loc = this.store.put(entry.meta, body);
    else if (entry.loc) this.store.retain(entry.loc);
    this.insert(entry);
    if (entry.state === 'delivered') this.deliveredBodies.delivered(entry);
    // A snapshot written before settled entries left memory: they leave it after the open.
    if (entry.state !== 'pending' && this.settlements) this.settledInMemory.add(entry);
    this.nextSeq = Math.max(this.nextSeq, entry.seq + 1);
  }

  /** Snapshot restore: one hook's pending ids in memory, in delivery order, and those parked. */
  restoreQueue(hookUuid: string, ids: string[], parked: string[] = []): void {
    const hook = this.hooks.get(hookUuid)!;
    for (const id of ids) hook.pending.push(id);
    for (const id of parked) hook.parked.add(id);
    this.headMoved(hook);
  }

  /** Snapshot restore: one of a hook's cold runs, after those restored before it. */
  restoreColdRun(hookUuid: string, snapshot: ColdRunSnapshot): void {
    const run = ColdRun.restore(snapshot);
    for (const p of run.payloads()) {
      if (!p.twin) this.store.retain(p);
      this.nextSeq = Math.max(this.nextSeq, p.seq + 1);
    }
    this.hookLog(hookUuid).cold.push(run);
  }

  /** Snapshot restore: a chunk of one hook's settled run, after those restored before it. */
  restoreSettled(hookUuid: string, chunk: SettledChunk): void {
    for (const p of this.hookLog(hookUuid).settled.restoreChunk(chunk)) {
      this.settledHashes.add(p.hash);
      this.settlements?.retain(p.settlement);
      if (p.payload) this.store.retain(p.payload);
      this.deliveredBodies.restored(hookUuid, p);
      this.nextSeq = Math.max(this.nextSeq, p.seq + 1);
    }
  }

  /** Snapshot restore: one hook's sent blocks, oldest first. */
  restoreSent(hookUuid: string, blocks: [string, readonly number[]][]): void {
    this.sent.restore(hookUuid, blocks);
  }

  protected newEntry(seq: number, meta: PayloadMeta, loc: Locator): OutboxEntry {
    return {
      seq,
      meta,
      loc,
      state: 'pending',
      next_attempt_at: meta.created_at,
      failure_reason: null,
      held_reason: null,
      attempts: NO_ATTEMPTS,
      delivered_at: null,
    };
  }

  protected hookLog(uuid: string): HookLog {
    let hook = this.hooks.get(uuid);
    if (!hook) {
      hook = newHookLog(this.heads.newQueue(uuid));
      this.hooks.set(uuid, hook);
    }
    return hook;
  }

  protected insert(entry: OutboxEntry, hook: HookLog = this.hookLog(entry.meta.hook_uuid)): HookLog {
    this.entries.set(entry.meta.id, entry);
    insertByAge(hook.log, entry);
    hook.counts[entry.state]++;
    return hook;
  }

  protected forget(entry: OutboxEntry): void {
    this.entries.delete(entry.meta.id);
    if (entry.loc) this.store.release(entry.loc, entry.meta.id);
    // Its body is let go with it, not again when its grace period ends.
    this.touch(entry);
    entry.loc = undefined;
  }

  protected entryOf(hookUuid: string, id: string): OutboxEntry | undefined {
    const entry = this.entries.get(id);
    return entry?.meta.hook_uuid === hookUuid ? entry : undefined;
  }

  protected headMoved(hook: HookLog): void {
    this.heads.moved(hook, this.headOf(hook));
    if (this.heads.size > 2 * this.hooks.size + 1024)
      this.heads.rebuild(this.hooks.values(), (h) => this.headOf(h));
  }

  protected headOf(hook: HookQueue): { at: number; seq: number } | undefined {
    const id = hook.pending.first();
    const entry = id === undefined ? undefined : this.entries.get(id)!;
    return entry && { at: entry.next_attempt_at!, seq: entry.seq };
  }

  // Every change to an entry in memory comes through here first, so a compaction under way can
  // keep the entry's record as it was when its snapshot was taken.
  protected touch(entry: OutboxEntry): void {
    this.beforeChange?.(entry);
  }

  protected see(at: number): void {
    if (at > this.seen) this.seen = at;
  }
}
