import type { DeliveryAttempt, DeliveryRecord, DeliveryState } from '../../core/delivery/delivery-record.js';
import type {
  AttemptOutcome,
  DeliveryPage,
  DueDelivery,
  OutgoingPayload,
  PendingSummary,
} from '../../core/ports/delivery-queue.js';
import { BodyGoneError } from './body-gone-error.js';
import { ColdRun, idHash, type ColdPayload, type ColdRunSnapshot } from './cold-run.js';
import { insertByAge, pageOf } from './delivery-log.js';
import { DeliveredBodies, pruneHookLog } from './log-retention.js';
import { HookHeads, type HookQueue } from './hook-heads.js';
import {
  coldCandidates,
  newHookLog,
  pendingCount,
  pendingRun,
  pendingRunOf,
  type HookLog,
} from './hook-log.js';
import { metaOf, recordOf, type OutboxEntry, type PayloadMeta } from './outbox-entry.js';
import type { Locator } from './payload-segments.js';
import type { PayloadStore } from './payload-store.js';
import { SENT_BLOCKS_PER_HOOK, SentApplies } from './sent-applies.js';

/** Options both outboxes take. */
export type OutboxOptions = {
  /** How long a delivered payload's body is kept for a redelivery, in ms (default one hour). */
  keepDeliveredBodiesMs?: number;
  /** Blocks remembered per hook for rollbacks (default 10,000; see `SENT_BLOCKS_PER_HOOK`). */
  sentBlocksPerHook?: number;
};

/** A payload as queued: its metadata and where its record is. */
export type PlacedPayload = { meta: PayloadMeta; loc: Locator };

/** A redelivery's record, and whether it changed anything (it was not pending already). */
type Redelivery = { record: DeliveryRecord; changed: boolean };

const HOUR_MS = 60 * 60 * 1000;

/**
 * The outbox as a synchronous state machine: per-hook FIFO queues of pending payloads, a heap of
 * hook heads by due time, the delivery log and the blocks sent for rollbacks. Payloads live whole
 * in a `PayloadStore`; the state keeps each hook's first `window` pending payloads (and its
 * settled ones) as entries in memory and the rest of its queue as a `ColdRun`, 33 bytes a
 * payload, taken back into memory as the window empties. It does no I/O of its own (the store's
 * reads are synchronous), so a journal replay does exactly what the run did.
 */
export class OutboxState {
  private readonly entries = new Map<string, OutboxEntry>();
  private readonly hooks = new Map<string, HookLog>();
  private readonly heads = new HookHeads();
  private readonly sent: SentApplies;
  private readonly deliveredBodies = new DeliveredBodies();
  private readonly keepDeliveredBodiesMs: number;
  private nextSeq = 0;
  /** Told before an entry in memory changes (see `watchChanges`). */
  private beforeChange: ((entry: Readonly<OutboxEntry>) => void) | undefined;
  /**
   * The latest time the outbox has been told of (creation, attempt, redelivery). The body grace
   * period runs on it instead of the wall clock, so a journal replay lets go of the same bodies.
   */
  private seen = 0;

  constructor(
    private readonly store: PayloadStore,
    /** Pending payloads a hook keeps in memory; the rest of its queue waits on disk. */
    private readonly window: number,
    options: OutboxOptions = {},
  ) {
    this.keepDeliveredBodiesMs = options.keepDeliveredBodiesMs ?? HOUR_MS;
    this.sent = new SentApplies(options.sentBlocksPerHook ?? SENT_BLOCKS_PER_HOOK);
  }

  /** Queue payloads in order, skipping known ids; returns those added, placed in the store. */
  enqueue(payloads: readonly OutgoingPayload[]): PlacedPayload[] {
    const added: PlacedPayload[] = [];
    for (const payload of payloads) {
      if (this.knows(payload.hook_uuid, payload.id)) continue;
      const placed = { meta: metaOf(payload), loc: this.store.put(payload) };
      this.add(placed);
      added.push(placed);
    }
    return added;
  }

  /** Replay: queue a payload already placed in the store (skipped when known, as it was). */
  enqueuePlaced(placed: PlacedPayload): void {
    if (this.knows(placed.meta.hook_uuid, placed.meta.id)) return;
    this.store.retain(placed.loc);
    this.add(placed);
  }

  /** hook → block hash → tx indexes sent in live applies not rolled back since. */
  sentApplies(blockHashes: readonly string[]): Map<string, Map<string, number[]>> {
    return this.sent.lookup(blockHashes);
  }

  /** The oldest pending payload of each hook not in `busy` that is due at `now`, earliest first. */
  due(now: number, limit: number, busy: ReadonlySet<string>): DueDelivery[] {
    return this.heads
      .due(now, limit, (uuid) => busy.has(uuid))
      .map((hook) => {
        const entry = this.entries.get(hook.pending.first()!)!;
        const body = this.store.body(entry.meta.id, entry.loc!);
        return { payload: { ...metaOf(entry.meta), body }, attempts: entry.attempts.length };
      });
  }

  /** When the earliest pending payload is due. */
  nextDueAt(): number | undefined {
    return this.heads.nextDueAt();
  }

  /** Payloads pending, and when the oldest hook head was created: one pass over the hooks. */
  pendingSummary(): PendingSummary {
    let pending = 0;
    let oldest: number | undefined;
    for (const hook of this.hooks.values()) {
      const count = pendingCount(hook);
      if (count === 0) continue;
      pending += count;
      const head = hook.pending.first();
      const createdAt = head === undefined ? undefined : this.entries.get(head)?.meta.created_at;
      if (createdAt !== undefined && (oldest === undefined || createdAt < oldest)) oldest = createdAt;
    }
    return { pending, oldestHeadCreatedAt: oldest };
  }

  /**
   * Log an attempt (none: a payload put back unsent) and apply its outcome; false for an unknown
   * id (its hook was dropped while the attempt ran). An attempt that ends after the payload was
   * settled (say, failed by an interrupt) is still logged, and a delivery still counts, since the
   * target did receive it.
   */
  recordAttempt(id: string, attempt: DeliveryAttempt | null, outcome: AttemptOutcome): boolean {
    const entry = this.entries.get(id);
    if (!entry) return false;
    this.touch(entry);
    if (attempt) {
      entry.attempts.push({ ...attempt });
      this.see(attempt.at);
    }
    const hook = this.hooks.get(entry.meta.hook_uuid)!;
    if (outcome.state === 'delivered') {
      this.settle(hook, entry, 'delivered', null);
      entry.delivered_at = attempt?.at ?? this.seen;
      this.deliveredBodies.delivered(entry);
    } else if (entry.state === 'pending') {
      if (outcome.state === 'failed') this.settle(hook, entry, 'failed', outcome.reason);
      else {
        entry.next_attempt_at = outcome.next_attempt_at;
        entry.held_reason = outcome.held_reason ?? null;
        if (hook.pending.first() === id) this.headMoved(hook);
      }
    }
    return true;
  }

  /** Fail every pending payload of a hook but `except`; returns how many. */
  failPending(hookUuid: string, reason: string, except?: string): number {
    const hook = this.hooks.get(hookUuid);
    if (!hook) return 0;
    const ids = [...hook.pending.clear(), ...hook.parked].filter((id) => {
      if (id !== except) return true;
      // The hook's queue held only this one back, so it is alone at the front again.
      hook.pending.push(id);
      return false;
    });
    hook.parked.clear();
    for (const id of ids) this.setState(hook, this.entries.get(id)!, 'failed', reason);
    const run = pendingRun(hook);
    const cold = run?.own ?? 0;
    if (run) {
      run.state = 'failed';
      run.reason = reason;
    }
    if (ids.length > 0 || run) this.headMoved(hook);
    return ids.length + cold;
  }

  /** Forget everything of a hook. */
  dropHook(hookUuid: string): void {
    const hook = this.hooks.get(hookUuid);
    if (hook) {
      for (const entry of hook.log) this.forget(entry);
      for (const run of hook.cold) for (const p of run.payloads()) if (!p.twin) this.store.release(p, '');
      this.heads.dropped(hook);
      this.hooks.delete(hookUuid);
    }
    this.sent.dropHook(hookUuid);
  }

  /** A page of a hook's log, newest first. */
  list(hookUuid: string, options: { state?: DeliveryState; offset: number; limit: number }): DeliveryPage {
    const hook = this.hooks.get(hookUuid);
    if (!hook) return { total: 0, results: [] };
    return pageOf(hook, options, (payload, run) => this.coldRecord(payload, run));
  }

  /** One record of a hook's log. */
  get(hookUuid: string, id: string): DeliveryRecord | undefined {
    const entry = this.entryOf(hookUuid, id);
    if (entry) return recordOf(entry);
    const found = this.findCold(hookUuid, id);
    return found && this.coldRecord(found.payload, found.run);
  }

  /**
   * Make a logged payload pending again, due at `now`, behind the hook's pending ones. A payload
   * still pending stays where it is, and its hook's queue is due at `now` (its head waits for no
   * scheduled retry): it goes out as soon as the payloads ahead of it have. `changed` is false when
   * nothing moved. Throws BodyGoneError when its body is gone.
   */
  redeliver(hookUuid: string, id: string, now: number): Redelivery | undefined {
    const entry = this.entryOf(hookUuid, id) ?? this.warmFailed(hookUuid, id);
    const hook = this.hooks.get(hookUuid);
    if (!entry || !hook) {
      // A pending payload on disk, behind the hook's window of pending payloads in memory.
      const cold = hook && this.findCold(hookUuid, id);
      if (!cold || cold.run.state !== 'pending') return undefined;
      return { record: this.coldRecord(cold.payload, cold.run), changed: this.hastenHead(hook, now) };
    }
    if (entry.state === 'pending') {
      const changed = this.hastenHead(hook, now);
      return { record: recordOf(entry), changed };
    }
    if (!entry.loc) throw new BodyGoneError(id);
    this.setState(hook, entry, 'pending', null);
    entry.next_attempt_at = now;
    entry.delivered_at = null;
    const run = pendingRun(hook);
    if (run) {
      // Behind the payloads on disk: it waits in the run, its entry kept in memory.
      run.push({
        ...entry.loc,
        seq: entry.seq,
        created_at: entry.meta.created_at,
        hash: idHash(id),
        twin: true,
      });
      hook.parked.add(id);
    } else {
      hook.pending.push(id);
      if (hook.pending.length === 1) this.headMoved(hook);
    }
    this.see(now);
    return { record: recordOf(entry), changed: true };
  }

  /**
   * Forget settled payloads created before `before`, then let go of old delivered bodies; returns
   * how many were forgotten. `now` moves the outbox's clock, so bodies go on time while idle too.
   */
  prune(before: number, now?: number): number {
    if (now !== undefined) this.see(now);
    let forgotten = 0;
    const release = (p: ColdPayload) => this.store.release(p, '');
    for (const hook of this.hooks.values()) {
      forgotten += pruneHookLog(hook, before, (entry) => this.forget(entry), release);
      if (hook.log.length === 0 && hook.cold.length === 0) {
        this.heads.dropped(hook);
        this.hooks.delete(hook.uuid);
      }
    }
    this.dropDeliveredBodies();
    return forgotten;
  }

  /** Let go of the bodies of payloads delivered longer than the grace period ago; returns how many. */
  dropDeliveredBodies(): number {
    return this.deliveredBodies.dropBefore(this.seen - this.keepDeliveredBodiesMs, (entry) => {
      this.touch(entry);
      this.store.release(entry.loc!, entry.meta.id);
      entry.loc = undefined;
    });
  }

  /** Settle a pending payload as delivered without an attempt: a caller took it to send itself. */
  handOver(id: string): void {
    const entry = this.entries.get(id);
    if (entry?.state !== 'pending') return;
    this.settle(this.hooks.get(entry.meta.hook_uuid)!, entry, 'delivered', null);
    entry.delivered_at = this.seen;
    this.deliveredBodies.delivered(entry);
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

  /** Every hook's sent blocks, oldest first. */
  sentBlocks(): Generator<[string, [string, number[]][]]> {
    return this.sent.entries();
  }

  /** How many payloads the state holds as entries in memory, and as cold payloads (33 bytes each). */
  footprint(): { entries: number; coldPayloads: number } {
    let coldPayloads = 0;
    for (const hook of this.hooks.values()) for (const run of hook.cold) coldPayloads += run.length;
    return { entries: this.entries.size, coldPayloads };
  }

  /**
   * Have `listener` told before any entry in memory changes (undefined: no one): a compaction
   * encoding a snapshot while the outbox runs keeps the entries it has not encoded yet as they were.
   */
  watchChanges(listener: ((entry: Readonly<OutboxEntry>) => void) | undefined): void {
    this.beforeChange = listener;
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
    if (body) entry.loc = this.store.put({ ...metaOf(entry.meta), body });
    else if (entry.loc) this.store.retain(entry.loc);
    this.insert(entry);
    if (entry.state === 'delivered') this.deliveredBodies.delivered(entry);
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

  /** Snapshot restore: one hook's sent blocks, oldest first. */
  restoreSent(hookUuid: string, blocks: [string, number[]][]): void {
    this.sent.restore(hookUuid, blocks);
  }

  private add({ meta, loc }: PlacedPayload): void {
    const seq = this.nextSeq++;
    const hook = this.hookLog(meta.hook_uuid);
    if (pendingRun(hook) || hook.pending.length >= this.window) {
      pendingRunOf(hook).push({
        ...loc,
        seq,
        created_at: meta.created_at,
        hash: idHash(meta.id),
        twin: false,
      });
    } else {
      this.insert(this.newEntry(seq, meta, loc));
      hook.pending.push(meta.id);
      if (hook.pending.length === 1) this.headMoved(hook);
    }
    if (meta.kind === 'live') this.sent.track(meta);
    this.see(meta.created_at);
  }

  private newEntry(seq: number, meta: PayloadMeta, loc: Locator): OutboxEntry {
    return {
      seq,
      meta,
      loc,
      state: 'pending',
      next_attempt_at: meta.created_at,
      failure_reason: null,
      held_reason: null,
      attempts: [],
      delivered_at: null,
    };
  }

  // Whether a payload id is queued or logged already: in memory, or (read to confirm) on disk.
  private knows(hookUuid: string, id: string): boolean {
    return this.entries.has(id) || this.findCold(hookUuid, id) !== undefined;
  }

  private findCold(hookUuid: string, id: string) {
    const hook = this.hooks.get(hookUuid);
    if (!hook || hook.cold.length === 0) return undefined;
    for (const found of coldCandidates(hook, id)) if (this.store.read(found.payload).id === id) return found;
    return undefined;
  }

  private coldRecord(payload: ColdPayload, run: ColdRun): DeliveryRecord {
    const meta = metaOf(this.store.read(payload));
    return recordOf({
      ...this.newEntry(payload.seq, meta, payload),
      state: run.state,
      next_attempt_at: run.state === 'pending' ? meta.created_at : null,
      failure_reason: run.state === 'failed' ? run.reason : null,
    });
  }

  // A failed payload on disk taken back into memory (to be redelivered), as the log showed it.
  private warmFailed(hookUuid: string, id: string): OutboxEntry | undefined {
    const found = this.findCold(hookUuid, id);
    if (!found || found.run.state !== 'failed') return undefined;
    const hook = this.hooks.get(hookUuid)!;
    const p = found.run.removeAt(found.position);
    if (found.run.length === 0) hook.cold.splice(hook.cold.indexOf(found.run), 1);
    const entry: OutboxEntry = {
      ...this.newEntry(p.seq, metaOf(this.store.read(p)), p),
      state: 'failed',
      next_attempt_at: null,
      failure_reason: found.run.reason,
    };
    this.insert(entry);
    return entry;
  }

  // Bring the front of the pending cold run into memory while the window has room.
  private warm(hook: HookLog): void {
    const run = pendingRun(hook);
    while (run && run.length > 0 && hook.pending.length < this.window) {
      const p = run.shift()!;
      if (p.twin) {
        // A redelivered payload waiting here, unless it was settled meanwhile (failed by an interrupt).
        const id = this.store.read(p).id;
        if (hook.parked.delete(id)) hook.pending.push(id);
      } else {
        const entry = this.newEntry(p.seq, metaOf(this.store.read(p)), p);
        this.insert(entry);
        hook.pending.push(entry.meta.id);
      }
    }
    if (run && run.length === 0) hook.cold.pop();
  }

  private hookLog(uuid: string): HookLog {
    let hook = this.hooks.get(uuid);
    if (!hook) {
      hook = newHookLog(this.heads.newQueue(uuid));
      this.hooks.set(uuid, hook);
    }
    return hook;
  }

  private insert(entry: OutboxEntry): HookLog {
    this.entries.set(entry.meta.id, entry);
    const hook = this.hookLog(entry.meta.hook_uuid);
    insertByAge(hook.log, entry);
    hook.counts[entry.state]++;
    return hook;
  }

  private forget(entry: OutboxEntry): void {
    this.entries.delete(entry.meta.id);
    if (entry.loc) this.store.release(entry.loc, entry.meta.id);
    // Its body is let go with it, not again when its grace period ends.
    this.touch(entry);
    entry.loc = undefined;
  }

  private entryOf(hookUuid: string, id: string): OutboxEntry | undefined {
    const entry = this.entries.get(id);
    return entry?.meta.hook_uuid === hookUuid ? entry : undefined;
  }

  private settle(hook: HookLog, entry: OutboxEntry, state: DeliveryState, reason: string | null): void {
    if (entry.state === 'pending') {
      const wasHead = hook.pending.first() === entry.meta.id;
      if (hook.pending.remove(entry.meta.id)) this.warm(hook);
      else hook.parked.delete(entry.meta.id);
      if (wasHead) this.headMoved(hook);
    }
    this.setState(hook, entry, state, reason);
  }

  private setState(hook: HookLog, entry: OutboxEntry, state: DeliveryState, reason: string | null): void {
    this.touch(entry);
    hook.counts[entry.state]--;
    hook.counts[state]++;
    entry.state = state;
    entry.failure_reason = reason;
    entry.held_reason = null;
    if (state !== 'pending') entry.next_attempt_at = null;
  }

  // Bring the hook's head forward to `now` when its next attempt was later; true when it moved.
  private hastenHead(hook: HookLog, now: number): boolean {
    const id = hook.pending.first();
    const head = id === undefined ? undefined : this.entries.get(id)!;
    if (!head || head.next_attempt_at === null || head.next_attempt_at <= now) return false;
    this.touch(head);
    head.next_attempt_at = now;
    head.held_reason = null;
    this.headMoved(hook);
    this.see(now);
    return true;
  }

  private headMoved(hook: HookLog): void {
    this.heads.moved(hook, this.headOf(hook));
    if (this.heads.size > 2 * this.hooks.size + 1024)
      this.heads.rebuild(this.hooks.values(), (h) => this.headOf(h));
  }

  private headOf(hook: HookQueue): { at: number; seq: number } | undefined {
    const id = hook.pending.first();
    const entry = id === undefined ? undefined : this.entries.get(id)!;
    return entry && { at: entry.next_attempt_at!, seq: entry.seq };
  }

  // Every change to an entry in memory comes through here first, so a compaction under way can
  // keep the entry's record as it was when its snapshot was taken.
  private touch(entry: OutboxEntry): void {
    this.beforeChange?.(entry);
  }

  private see(at: number): void {
    if (at > this.seen) this.seen = at;
  }
}
