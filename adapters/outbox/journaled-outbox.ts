import type { DeliveryAttempt, DeliveryRecord, DeliveryState } from '../../core/delivery/delivery-record.js';
import type {
  AttemptOutcome,
  AttemptReport,
  DeliveryPage,
  DeliveryQueue,
  DueDelivery,
  OutgoingPayload,
  PendingSummary,
} from '../../core/ports/delivery-queue.js';
import { batchOf } from './enqueued-batch.js';
import { EnqueueListeners } from './enqueue-listeners.js';
import { locTuple, type JournalEntry } from './journal-entry.js';
import type { OutboxState } from './outbox-state.js';

/** Where an outbox makes its changes durable. */
export type OutboxJournal = {
  /**
   * Make `entries` durable; resolves once they (and every earlier commit) are. `compact` asks for
   * the journal to be rewritten from the state instead of appended to.
   */
  commit(entries: JournalEntry[], compact?: boolean): Promise<void>;
  /** Throw when the outbox may not change any more (closed, or its journal failed). */
  usable(): void;
};

/**
 * The delivery port over the in-memory state machine, with every change handed to a journal as
 * the entries that would replay it: nowhere for the memory outbox, an fsynced file for the file
 * outbox. The port's methods live here once, so the two cannot drift apart in what a change does.
 */
export class JournaledOutbox implements DeliveryQueue {
  private readonly listeners = new EnqueueListeners();

  constructor(
    protected readonly state: OutboxState,
    private readonly journal: OutboxJournal,
  ) {}

  /** Queue payloads in order (known ids skipped); resolves once they are durable. */
  async enqueue(payloads: OutgoingPayload[]): Promise<void> {
    this.journal.usable();
    const added = this.state.enqueue(payloads);
    await this.journal.commit(this.withMoves(added.length > 0 ? [batchOf(added)] : []));
    if (added.length > 0) this.listeners.notify();
  }

  /** Hooks and transactions sent in live applies of these blocks. */
  async sentApplies(blockHashes: readonly string[]): Promise<Map<string, Map<string, number[]>>> {
    return this.state.sentApplies(blockHashes);
  }

  /** Forget a hook's queue, log and sent blocks. */
  async dropHook(hookUuid: string): Promise<void> {
    this.journal.usable();
    this.state.dropHook(hookUuid);
    await this.journal.commit([{ t: 'dropped', hook: hookUuid }]);
  }

  /** Each idle hook's oldest pending payload, if due. */
  async due(now: number, limit: number, busy: ReadonlySet<string>): Promise<DueDelivery[]> {
    return this.state.due(now, limit, busy);
  }

  /** The earliest next attempt of any pending payload. */
  async nextDueAt(): Promise<number | undefined> {
    return this.state.nextDueAt();
  }

  /** Log an attempt and apply its outcome (an unknown id is ignored: its hook is gone). */
  async recordAttempt(id: string, attempt: DeliveryAttempt | null, outcome: AttemptOutcome): Promise<void> {
    await this.recordAttempts([{ id, attempt, outcome }]);
  }

  /** Log attempts and apply their outcomes in order, in one commit. */
  async recordAttempts(reports: readonly AttemptReport[]): Promise<void> {
    this.journal.usable();
    const entries: JournalEntry[] = [];
    for (const { id, attempt, outcome } of reports) {
      if (!this.state.recordAttempt(id, attempt, outcome)) continue;
      // Each attempt's moves right after it: a replay applies them in the order they happened.
      this.withMoves([{ t: 'attempt', id, attempt, outcome }], entries);
    }
    await this.journal.commit(entries);
  }

  /** Fail every pending payload of a hook but the one in flight. */
  async failPending(hookUuid: string, reason: string, inFlight?: string): Promise<void> {
    this.journal.usable();
    const failed = this.state.failPending(hookUuid, reason, inFlight);
    const entry: JournalEntry = {
      t: 'failed_pending',
      hook: hookUuid,
      reason,
      at: Date.now(),
      except: inFlight,
    };
    await this.journal.commit(this.withMoves(failed > 0 ? [entry] : []));
  }

  /** A page of a hook's log, newest first. */
  async list(
    hookUuid: string,
    options: { state?: DeliveryState; offset: number; limit: number },
  ): Promise<DeliveryPage> {
    return this.state.list(hookUuid, options);
  }

  /** One record of a hook's log. */
  async get(hookUuid: string, id: string): Promise<DeliveryRecord | undefined> {
    return this.state.get(hookUuid, id);
  }

  /** Queue a logged payload again, behind the hook's pending ones; rejects with BodyGoneError when its body is gone. */
  async redeliver(hookUuid: string, id: string, now: number): Promise<DeliveryRecord | undefined> {
    this.journal.usable();
    const result = this.state.redeliver(hookUuid, id, now);
    const entries: JournalEntry[] = result?.changed ? [{ t: 'redelivered', hook: hookUuid, id, now }] : [];
    await this.journal.commit(this.withMoves(entries));
    return result?.record;
  }

  /** Payloads pending, and when the oldest hook head was created. */
  async pendingSummary(): Promise<PendingSummary> {
    return this.state.pendingSummary();
  }

  /**
   * Forget settled payloads created before `before`. The journal records the prune; it is
   * compacted only when that pays (see `FileJournal`), not at every prune.
   */
  async prune(before: number, now?: number): Promise<number> {
    this.journal.usable();
    const forgotten = this.state.prune(before, now);
    // Recorded even when nothing was forgotten: bodies past their window went too, and a replay
    // must let go of the same ones.
    await this.journal.commit([{ t: 'pruned', before, ...(now !== undefined && { now }) }]);
    return forgotten;
  }

  /** Move every settled entry still in memory to disk (after an open that replayed an older journal). */
  protected async settleToDisk(): Promise<void> {
    const entries = this.withMoves([]);
    if (entries.length > 0) await this.journal.commit(entries);
  }

  /** Call `listener` after each enqueue that added something; returns a function that stops it. */
  onEnqueued(listener: () => void): () => void {
    return this.listeners.add(listener);
  }

  // `entries`, then a record of each settled entry that left memory since the last call and of
  // each sent block's move to disk, all appended to `into`.
  private withMoves(entries: JournalEntry[], into: JournalEntry[] = []): JournalEntry[] {
    into.push(...entries);
    for (const { hook, id, loc } of this.state.settleToDisk())
      into.push({ t: 'settled', hook, id, loc: locTuple(loc) });
    for (const { hash, loc, replace } of this.state.sentToDisk())
      into.push({ t: 'sent_moved', hash, loc: loc && locTuple(loc), ...(replace && { replace }) });
    return into;
  }
}
