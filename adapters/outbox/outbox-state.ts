import type { DeliveryAttempt, DeliveryRecord, DeliveryState } from '../../core/delivery/delivery-record.js';
import type {
  AttemptOutcome,
  DeliveryPage,
  DueDelivery,
  OutgoingPayload,
  PendingSummary,
} from '../../core/ports/delivery-queue.js';
import { BodyGoneError } from './body-gone-error.js';
import { idHash } from './cold-run.js';
import { pruneHookLog, type Forgetting } from './log-retention.js';
import { pendingCount, pendingRun, pendingRunOf, type HookLog } from './hook-log.js';
import { MetaCopies, metaOf, recordOf, type OutboxEntry, type PayloadMeta } from './outbox-entry.js';
import type { Locator } from './payload-segments.js';
import { SettledLog } from './settled-log.js';

export type { OutboxOptions } from './outbox-memory.js';

/** A payload as queued: its metadata and where its record is. */
export type PlacedPayload = { meta: PayloadMeta; loc: Locator };

/** A redelivery's record, and whether it changed anything (it was not pending already). */
type Redelivery = { record: DeliveryRecord; changed: boolean };

/**
 * The outbox as a synchronous state machine: per-hook FIFO queues of pending payloads, a heap of
 * hook heads by due time, the delivery log and the blocks sent for rollbacks. Payloads live whole
 * in a `PayloadStore`; the state keeps each hook's first `window` pending payloads as entries in
 * memory and the rest of its queue as a `ColdRun`, 33 bytes a payload, taken back into memory as
 * the window empties. With a `SettlementStore`, a payload that settles leaves memory too
 * (`settleToDisk`): its entry becomes a settlement record and 54 bytes in the hook's `SettledRun`,
 * read back for a listing and taken back into memory for a redelivery. It does no I/O of its own
 * (the stores' reads are synchronous), so a journal replay does exactly what the run did; leaving
 * memory writes a record, so the journal names it (`movedToDisk`) and a replay does not write.
 */
export class OutboxState extends SettledLog {
  private readonly metaCopies = new MetaCopies();

  /** Queue payloads in order, skipping known ids; returns those added, placed in the store. */
  enqueue(payloads: readonly OutgoingPayload[]): PlacedPayload[] {
    const added: PlacedPayload[] = [];
    for (const payload of payloads) {
      if (this.knows(payload.hook_uuid, payload.id)) continue;
      const meta = this.metaCopies.copy(payload);
      const placed = { meta, loc: this.store.put(meta, payload.body) };
      this.add(placed);
      added.push(placed);
    }
    return added;
  }

  /**
   * Replay: queue a payload already placed in the store. The journal names only payloads that were
   * new when queued, so only memory is looked at (a look on disk would cost the hook's history).
   */
  enqueuePlaced(placed: PlacedPayload): void {
    if (this.entries.has(placed.meta.id)) return;
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
        const body_text = this.store.bodyText(entry.meta.id, entry.loc!);
        return { payload: { ...metaOf(entry.meta), body_text }, attempts: entry.attempts.length };
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
    const entry = this.entries.get(id) ?? this.warmSettledAnywhere(id);
    if (!entry) return false;
    this.touch(entry);
    if (attempt) {
      entry.attempts = [...entry.attempts, { ...attempt }];
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
      for (const p of hook.settled.payloads()) this.forgetSettled(p);
      this.heads.dropped(hook);
      this.hooks.delete(hookUuid);
    }
    this.sent.dropHook(hookUuid);
  }

  /** A page of a hook's log, newest first. */
  list(hookUuid: string, options: { state?: DeliveryState; offset: number; limit: number }): DeliveryPage {
    const hook = this.hooks.get(hookUuid);
    if (!hook) return { total: 0, results: [] };
    return this.reader.page(hook, options);
  }

  /** One record of a hook's log. */
  get(hookUuid: string, id: string): DeliveryRecord | undefined {
    const entry = this.entryOf(hookUuid, id);
    if (entry) return recordOf(entry);
    const hook = this.hooks.get(hookUuid);
    return hook && this.reader.getOnDisk(hook, id);
  }

  /**
   * Make a logged payload pending again, due at `now`, behind the hook's pending ones. A payload
   * still pending stays where it is, and its hook's queue is due at `now` (its head waits for no
   * scheduled retry): it goes out as soon as the payloads ahead of it have. `changed` is false when
   * nothing moved. Throws BodyGoneError when its body is gone.
   */
  redeliver(hookUuid: string, id: string, now: number): Redelivery | undefined {
    const entry =
      this.entryOf(hookUuid, id) ?? this.warmFailed(hookUuid, id) ?? this.warmSettled(hookUuid, id);
    const hook = this.hooks.get(hookUuid);
    if (!entry || !hook) {
      // A pending payload on disk, behind the hook's window of pending payloads in memory.
      const cold = hook && this.reader.findCold(hook, id);
      if (!cold || cold.run.state !== 'pending') return undefined;
      return { record: this.reader.coldRecord(cold.payload, cold.run), changed: this.hastenHead(hook, now) };
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
    // Bodies first: each is let go once, by its window or with its payload, never missed between.
    this.dropDeliveredBodies();
    let forgotten = 0;
    const forget: Forgetting = {
      entry: (entry) => this.forget(entry),
      cold: (p) => this.store.release(p, ''),
      settled: (p) => this.forgetSettled(p),
    };
    for (const hook of this.hooks.values()) {
      forgotten += pruneHookLog(hook, before, forget);
      if (hook.log.length === 0 && hook.cold.length === 0 && hook.settled.length === 0) {
        this.heads.dropped(hook);
        this.hooks.delete(hook.uuid);
      }
    }
    return forgotten;
  }

  /** Settle a pending payload as delivered without an attempt: a caller took it to send itself. */
  handOver(id: string): void {
    const entry = this.entries.get(id);
    if (entry?.state !== 'pending') return;
    this.settle(this.hooks.get(entry.meta.hook_uuid)!, entry, 'delivered', null);
    entry.delivered_at = this.seen;
    this.deliveredBodies.delivered(entry);
  }

  protected add({ meta, loc }: PlacedPayload): void {
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
      this.insert(this.newEntry(seq, meta, loc), hook);
      hook.pending.push(meta.id);
      if (hook.pending.length === 1) this.headMoved(hook);
    }
    if (meta.kind === 'live' || meta.remembered === true) this.sent.track(meta);
    this.see(meta.created_at);
  }

  // Bring the front of the pending cold run into memory while the window has room.
  protected warmPending(hook: HookLog): void {
    const run = pendingRun(hook);
    while (run && run.length > 0 && hook.pending.length < this.window) {
      const p = run.shift()!;
      if (p.twin) {
        // A redelivered payload waiting here, unless it was settled meanwhile (failed by an interrupt).
        const id = this.store.meta(p).id;
        if (hook.parked.delete(id)) hook.pending.push(id);
      } else {
        const entry = this.newEntry(p.seq, this.reader.metaAt(p), p);
        this.insert(entry);
        hook.pending.push(entry.meta.id);
      }
    }
    if (run && run.length === 0) hook.cold.pop();
  }

  protected settle(hook: HookLog, entry: OutboxEntry, state: DeliveryState, reason: string | null): void {
    if (entry.state === 'pending') {
      const wasHead = hook.pending.first() === entry.meta.id;
      if (hook.pending.remove(entry.meta.id)) this.warmPending(hook);
      else hook.parked.delete(entry.meta.id);
      if (wasHead) this.headMoved(hook);
    }
    this.setState(hook, entry, state, reason);
  }

  protected setState(hook: HookLog, entry: OutboxEntry, state: DeliveryState, reason: string | null): void {
    this.touch(entry);
    hook.counts[entry.state]--;
    hook.counts[state]++;
    entry.state = state;
    entry.failure_reason = reason;
    entry.held_reason = null;
    if (state !== 'pending') entry.next_attempt_at = null;
    if (state !== 'pending' && this.settlements) this.settledInMemory.add(entry);
  }

  // Bring the hook's head forward to `now` when its next attempt was later; true when it moved.
  protected hastenHead(hook: HookLog, now: number): boolean {
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
}
