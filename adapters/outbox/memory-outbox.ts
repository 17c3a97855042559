import type { DeliveryAttempt, DeliveryRecord, DeliveryState } from '../../core/delivery/delivery-record.js';
import type {
  AttemptOutcome,
  AttemptReport,
  DeliveryPage,
  DeliveryQueue,
  DueDelivery,
  OutgoingPayload,
} from '../../core/ports/delivery-queue.js';
import { EnqueueListeners } from './enqueue-listeners.js';
import { payloadOf } from './outbox-entry.js';
import { OutboxState, type OutboxOptions } from './outbox-state.js';

/**
 * The outbox in memory: the whole delivery state machine, nothing on disk, so a restart forgets
 * everything. For tests, and for embedding callers who accept that (or take payloads themselves
 * with `take()`).
 */
export class MemoryOutbox implements DeliveryQueue {
  private readonly state: OutboxState;
  private readonly listeners = new EnqueueListeners();

  constructor(options: OutboxOptions = {}) {
    this.state = new OutboxState(options);
  }

  /** Queue payloads in order; an id already known is skipped. */
  async enqueue(payloads: OutgoingPayload[]): Promise<void> {
    if (this.state.enqueue(payloads).length > 0) this.listeners.notify();
  }

  /** Hooks and transactions sent in live applies of these blocks. */
  async sentApplies(blockHashes: readonly string[]): Promise<Map<string, Map<string, number[]>>> {
    return this.state.sentApplies(blockHashes);
  }

  /** Forget a hook's queue, log and sent blocks. */
  async dropHook(hookUuid: string): Promise<void> {
    this.state.dropHook(hookUuid);
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
  async recordAttempt(id: string, attempt: DeliveryAttempt, outcome: AttemptOutcome): Promise<void> {
    await this.recordAttempts([{ id, attempt, outcome }]);
  }

  /** Log attempts and apply their outcomes in order. */
  async recordAttempts(reports: readonly AttemptReport[]): Promise<void> {
    for (const { id, attempt, outcome } of reports) this.state.recordAttempt(id, attempt, outcome);
  }

  /** Fail every pending payload of a hook. */
  async failPending(hookUuid: string, reason: string): Promise<void> {
    this.state.failPending(hookUuid, reason);
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
    const result = this.state.redeliver(hookUuid, id, now);
    return result?.record;
  }

  /** Forget settled payloads created before `before`. */
  async prune(before: number): Promise<number> {
    return this.state.prune(before);
  }

  /** Call `listener` after each enqueue that added something; returns a function that stops it. */
  onEnqueued(listener: () => void): () => void {
    return this.listeners.add(listener);
  }

  /** Every payload whose body is still held, in enqueue order, whatever its state (a test view). */
  all(): OutgoingPayload[] {
    return [...this.state.entriesInOrder()].filter((entry) => entry.body).map(payloadOf);
  }

  /** Take every pending payload, in enqueue order, to send yourself: each is settled as delivered. */
  take(): OutgoingPayload[] {
    const taken = [...this.state.entriesInOrder()]
      .filter((entry) => entry.state === 'pending')
      .map(payloadOf);
    for (const payload of taken) this.state.handOver(payload.id);
    return taken;
  }
}
