import type { DeliveryAttempt, DeliveryRecord, DeliveryState } from '../../core/delivery/delivery-record.js';
import type {
  AttemptOutcome,
  DeliveryPage,
  DueDelivery,
  OutgoingPayload,
} from '../../core/ports/delivery-queue.js';
import { BodyGoneError } from './body-gone-error.js';
import { insertByAge, pageOf } from './delivery-log.js';
import { HookHeads, type HookQueue } from './hook-heads.js';
import { metaOf, payloadOf, recordOf, type OutboxEntry } from './outbox-entry.js';
import { SENT_BLOCKS_PER_HOOK, SentApplies } from './sent-applies.js';

/** Options both outboxes take. */
export type OutboxOptions = {
  /** How long a delivered payload's body is kept for a redelivery, in ms (default one hour). */
  keepDeliveredBodiesMs?: number;
  /** Blocks remembered per hook for rollbacks (default 10,000; see `SENT_BLOCKS_PER_HOOK`). */
  sentBlocksPerHook?: number;
};

/** A hook's pending queue plus its delivery log, sorted by (created_at, enqueue order). */
type HookLog = HookQueue & { log: OutboxEntry[]; counts: Record<DeliveryState, number> };

/** A redelivery's record, and whether it changed anything (it was not pending already). */
type Redelivery = { record: DeliveryRecord; changed: boolean };

const HOUR_MS = 60 * 60 * 1000;

/**
 * The outbox as a synchronous state machine: per-hook FIFO queues of pending payloads, a heap of
 * hook heads by due time, the delivery log and the blocks sent for rollbacks. It does no I/O, so
 * the memory outbox is just this, and the file outbox replays its journal into it.
 */
export class OutboxState {
  private readonly entries = new Map<string, OutboxEntry>();
  private readonly hooks = new Map<string, HookLog>();
  private readonly heads = new HookHeads();
  private readonly sent: SentApplies;
  private readonly keepDeliveredBodiesMs: number;
  private nextSeq = 0;
  /**
   * The latest time the outbox has been told of (creation, attempt, redelivery). The body grace
   * period runs on it instead of the wall clock, so a journal replay lets go of the same bodies.
   */
  private seen = 0;

  constructor(options: OutboxOptions = {}) {
    this.keepDeliveredBodiesMs = options.keepDeliveredBodiesMs ?? HOUR_MS;
    this.sent = new SentApplies(options.sentBlocksPerHook ?? SENT_BLOCKS_PER_HOOK);
  }

  /** Queue payloads in order, skipping known ids; returns those added. */
  enqueue(payloads: readonly OutgoingPayload[]): OutgoingPayload[] {
    const added: OutgoingPayload[] = [];
    for (const payload of payloads) {
      if (this.entries.has(payload.id)) continue;
      const entry: OutboxEntry = {
        seq: this.nextSeq++,
        meta: metaOf(payload),
        body: payload.body,
        state: 'pending',
        next_attempt_at: payload.created_at,
        failure_reason: null,
        attempts: [],
        delivered_at: null,
      };
      const hook = this.insert(entry);
      hook.pending.push(payload.id);
      if (hook.pending.length === 1) this.headMoved(hook);
      if (payload.kind === 'live') this.sent.track(entry.meta);
      this.see(payload.created_at);
      added.push(payload);
    }
    return added;
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
        return { payload: payloadOf(entry), attempts: entry.attempts.length };
      });
  }

  /** When the earliest pending payload is due. */
  nextDueAt(): number | undefined {
    return this.heads.nextDueAt();
  }

  /**
   * Log an attempt and apply its outcome; false for an unknown id (its hook was dropped while the
   * attempt ran). An attempt that ends after the payload was settled (say, failed by an interrupt)
   * is still logged, and a delivery still counts, since the target did receive it.
   */
  recordAttempt(id: string, attempt: DeliveryAttempt | null, outcome: AttemptOutcome): boolean {
    const entry = this.entries.get(id);
    if (!entry) return false;
    if (attempt) {
      entry.attempts.push({ ...attempt });
      this.see(attempt.at);
    }
    const hook = this.hooks.get(entry.meta.hook_uuid)!;
    if (outcome.state === 'delivered') {
      this.settle(hook, entry, 'delivered', null);
      entry.delivered_at = attempt?.at ?? this.seen;
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
    const ids = hook.pending.clear().filter((id) => {
      if (id !== except) return true;
      // The hook's queue held only this one back, so it is alone at the front again.
      hook.pending.push(id);
      return false;
    });
    for (const id of ids) this.setState(hook, this.entries.get(id)!, 'failed', reason);
    if (ids.length > 0) this.headMoved(hook);
    return ids.length;
  }

  /** Forget everything of a hook. */
  dropHook(hookUuid: string): void {
    const hook = this.hooks.get(hookUuid);
    if (hook) {
      for (const entry of hook.log) this.entries.delete(entry.meta.id);
      this.heads.dropped(hook);
      this.hooks.delete(hookUuid);
    }
    this.sent.dropHook(hookUuid);
  }

  /** A page of a hook's log, newest first. */
  list(hookUuid: string, options: { state?: DeliveryState; offset: number; limit: number }): DeliveryPage {
    const hook = this.hooks.get(hookUuid);
    return hook ? pageOf(hook.log, hook.counts, options) : { total: 0, results: [] };
  }

  /** One record of a hook's log. */
  get(hookUuid: string, id: string): DeliveryRecord | undefined {
    const entry = this.entryOf(hookUuid, id);
    return entry && recordOf(entry);
  }

  /**
   * Make a logged payload pending again, due at `now`, behind the hook's pending ones. `changed` is
   * false when it was pending already (left where it is). Throws BodyGoneError when its body is gone.
   */
  redeliver(hookUuid: string, id: string, now: number): Redelivery | undefined {
    const entry = this.entryOf(hookUuid, id);
    if (!entry) return undefined;
    if (entry.state === 'pending') return { record: recordOf(entry), changed: false };
    if (!entry.body) throw new BodyGoneError(id);
    const hook = this.hooks.get(hookUuid)!;
    this.setState(hook, entry, 'pending', null);
    entry.next_attempt_at = now;
    entry.delivered_at = null;
    hook.pending.push(id);
    if (hook.pending.length === 1) this.headMoved(hook);
    this.see(now);
    return { record: recordOf(entry), changed: true };
  }

  /** Forget settled payloads created before `before`, then let go of old delivered bodies; returns how many were forgotten. */
  prune(before: number): number {
    let forgotten = 0;
    for (const hook of this.hooks.values()) {
      const kept: OutboxEntry[] = [];
      for (const entry of hook.log) {
        if (entry.state === 'pending' || entry.meta.created_at >= before) kept.push(entry);
        else {
          this.entries.delete(entry.meta.id);
          hook.counts[entry.state]--;
          forgotten++;
        }
      }
      hook.log = kept;
      if (kept.length === 0) {
        this.heads.dropped(hook);
        this.hooks.delete(hook.uuid);
      }
    }
    this.dropDeliveredBodies();
    return forgotten;
  }

  /** Let go of the bodies of payloads delivered longer than the grace period ago; returns how many. */
  dropDeliveredBodies(): number {
    let dropped = 0;
    const cutoff = this.seen - this.keepDeliveredBodiesMs;
    for (const entry of this.entries.values()) {
      if (entry.state !== 'delivered' || !entry.body || entry.delivered_at! >= cutoff) continue;
      entry.body = undefined;
      dropped++;
    }
    return dropped;
  }

  /** Settle a pending payload as delivered without an attempt: a caller took it to send itself. */
  handOver(id: string): void {
    const entry = this.entries.get(id);
    if (entry?.state !== 'pending') return;
    this.settle(this.hooks.get(entry.meta.hook_uuid)!, entry, 'delivered', null);
    entry.delivered_at = this.seen;
  }

  /** Every entry in enqueue order, read-only: for snapshots and test views. */
  entriesInOrder(): IterableIterator<Readonly<OutboxEntry>> {
    return this.entries.values();
  }

  /** Every hook's pending ids in delivery order. */
  *pendingQueues(): Generator<[string, string[]]> {
    for (const hook of this.hooks.values())
      if (hook.pending.length > 0) yield [hook.uuid, hook.pending.toArray()];
  }

  /** Every hook's sent blocks, oldest first. */
  sentBlocks(): Generator<[string, [string, number[]][]]> {
    return this.sent.entries();
  }

  /** The outbox's notion of now. */
  get clock(): number {
    return this.seen;
  }

  /** Snapshot restore: the clock. */
  restoreClock(seen: number): void {
    this.see(seen);
  }

  /** Snapshot restore: one entry as it was (its pending place comes from `restoreQueue`). */
  restoreEntry(entry: OutboxEntry): void {
    this.insert(entry);
    this.nextSeq = Math.max(this.nextSeq, entry.seq + 1);
  }

  /** Snapshot restore: one hook's pending ids in delivery order. */
  restoreQueue(hookUuid: string, ids: string[]): void {
    const hook = this.hooks.get(hookUuid)!;
    for (const id of ids) hook.pending.push(id);
    this.headMoved(hook);
  }

  /** Snapshot restore: one hook's sent blocks, oldest first. */
  restoreSent(hookUuid: string, blocks: [string, number[]][]): void {
    this.sent.restore(hookUuid, blocks);
  }

  private insert(entry: OutboxEntry): HookLog {
    this.entries.set(entry.meta.id, entry);
    const uuid = entry.meta.hook_uuid;
    let hook = this.hooks.get(uuid);
    if (!hook) {
      hook = { ...this.heads.newQueue(uuid), log: [], counts: { pending: 0, delivered: 0, failed: 0 } };
      this.hooks.set(uuid, hook);
    }
    insertByAge(hook.log, entry);
    hook.counts[entry.state]++;
    return hook;
  }

  private entryOf(hookUuid: string, id: string): OutboxEntry | undefined {
    const entry = this.entries.get(id);
    return entry?.meta.hook_uuid === hookUuid ? entry : undefined;
  }

  private settle(hook: HookLog, entry: OutboxEntry, state: DeliveryState, reason: string | null): void {
    if (entry.state === 'pending') {
      const wasHead = hook.pending.first() === entry.meta.id;
      hook.pending.remove(entry.meta.id);
      if (wasHead) this.headMoved(hook);
    }
    this.setState(hook, entry, state, reason);
  }

  private setState(hook: HookLog, entry: OutboxEntry, state: DeliveryState, reason: string | null): void {
    hook.counts[entry.state]--;
    hook.counts[state]++;
    entry.state = state;
    entry.failure_reason = reason;
    entry.held_reason = null;
    if (state !== 'pending') entry.next_attempt_at = null;
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

  private see(at: number): void {
    if (at > this.seen) this.seen = at;
  }
}
