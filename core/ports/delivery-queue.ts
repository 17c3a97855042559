import type {
  AppliedBlockRef,
  BlockRef,
  DeliveryAttempt,
  DeliveryKind,
  DeliveryRecord,
  DeliveryState,
} from '../delivery/delivery-record.js';
import type { WebhookPayload } from '../payload/webhook-payload.js';

/** One webhook body on its way to one hook's URL. */
export type OutgoingPayload = {
  /** The `webhook-id`: the same on every retry, and derived from the chain event so a re-run after a crash repeats it. */
  id: string;
  hook_uuid: string;
  owner: string;
  url: string;
  kind: DeliveryKind;
  apply: AppliedBlockRef[];
  rollback: BlockRef[];
  /**
   * The body. A hook registered through the Chainhook 1.x API is queued 1.x's body instead (see
   * `queuedV1Body`): the queue only stores and serializes bodies, never reads their fields.
   */
  body: WebhookPayload;
  /** Milliseconds since the unix epoch. */
  created_at: number;
  /**
   * A payload of another kind than `live` whose apply is remembered as a live one's is, so that a
   * reorg that takes its block away rolls it back (`sentApplies`): a backfill's block near the tip.
   */
  remembered?: true;
};

/** A payload without its body: what a send check reads, and what a log keeps once the body is let go. */
export type PayloadMeta = Omit<OutgoingPayload, 'body'>;

/**
 * A payload as `due` hands it out: its body as the JSON text it is sent as, exactly
 * `serializePayload` of the body queued. A store that keeps bodies as text hands that text over
 * unparsed, so a body is never parsed only to be serialized again for its attempt.
 */
export type DuePayload = PayloadMeta & { body_text: string };

/** A payload due for an attempt, with what the sender needs. */
export type DueDelivery = { payload: DuePayload; attempts: number };

/**
 * What an attempt decided: try again at a time, done, or given up on. A pending outcome may say
 * why the payload is held back beyond its retry schedule (`held_reason`, shown in the log until
 * the next attempt).
 */
export type AttemptOutcome =
  | { state: 'pending'; next_attempt_at: number; held_reason?: string }
  | { state: 'delivered' }
  | { state: 'failed'; reason: string };

/**
 * One attempt on a payload and what it decided, as `recordAttempts` takes it. With `attempt` null
 * nothing was sent: a payload taken by `due` is put back, pending, due at the outcome's time (its
 * hook's lane was full, or its origin's circuit open), and no attempt is logged or counted.
 */
export type AttemptReport = { id: string; attempt: DeliveryAttempt | null; outcome: AttemptOutcome };

/** How much waits in the outbox, for metrics. */
export type PendingSummary = {
  /** Payloads pending, in memory and on disk. */
  pending: number;
  /**
   * When the oldest payload at the head of a hook's queue was created (ms): how long delivery has
   * kept a receiver waiting. Undefined when nothing is pending.
   */
  oldestHeadCreatedAt: number | undefined;
};

/** A page of one hook's delivery log, newest first. */
export type DeliveryPage = { total: number; results: DeliveryRecord[] };

/**
 * The outbox: where payloads wait for delivery, and the delivery log of what happened to them.
 * `enqueue` resolves only once they would survive a crash (the chain event counts as processed
 * right after); an id already queued is not queued twice. Per hook, payloads leave in the order
 * they were queued: only a hook's oldest pending payload is ever due.
 */
export interface DeliveryQueue {
  /** Store payloads durably, in order; per hook they go out in this order. */
  enqueue(payloads: OutgoingPayload[]): Promise<void>;
  /**
   * For blocks leaving the canonical chain: which hooks were sent each of them in a live apply
   * (that no later rollback took back), and with which transactions (indexes into the block).
   * Result: hook uuid → block hash → transaction indexes.
   */
  sentApplies(blockHashes: readonly string[]): Promise<Map<string, Map<string, number[]>>>;
  /** Forget a deleted hook: drop its queued payloads and its log; nothing more is delivered for it. */
  dropHook(hookUuid: string): Promise<void>;
  /**
   * Up to `limit` payloads due at `now`: for each hook not in `busy`, its oldest pending payload if
   * its next attempt is due. Oldest due first.
   */
  due(now: number, limit: number, busy: ReadonlySet<string>): Promise<DueDelivery[]>;
  /** The earliest next attempt of any pending payload (ms), or undefined when none is pending. */
  nextDueAt(): Promise<number | undefined>;
  /** Record an attempt and its outcome durably; the same as `recordAttempts` with one report. */
  recordAttempt(id: string, attempt: DeliveryAttempt | null, outcome: AttemptOutcome): Promise<void>;
  /**
   * Record many attempts durably at once, with the same effect as recording them one by one in
   * this order: a worker settles the attempts that ended together in one write (one round trip to
   * a shared database, one fsync on disk) rather than one each.
   */
  recordAttempts(reports: readonly AttemptReport[]): Promise<void>;
  /**
   * Give up on every pending payload of a hook (it was interrupted): they become failed with
   * `reason`. `inFlight`, the payload whose failure interrupts the hook, is spared: its own attempt
   * records that failure, after this, so a redeliver asked for once it shows is not caught here.
   */
  failPending(hookUuid: string, reason: string, inFlight?: string): Promise<void>;
  /** A page of one hook's delivery log, newest first, optionally of one state. */
  list(
    hookUuid: string,
    options: { state?: DeliveryState; offset: number; limit: number },
  ): Promise<DeliveryPage>;
  /** One record of a hook's log, or undefined. */
  get(hookUuid: string, id: string): Promise<DeliveryRecord | undefined>;
  /**
   * Send a logged payload again: it becomes pending, due at `now`, behind the hook's other pending
   * payloads, keeping its id and its attempts. A payload still pending keeps its place, and the
   * hook's oldest pending payload becomes due at `now` if its next attempt was later, so that it,
   * and then this one, go out without waiting for a scheduled retry. Undefined when the hook has no
   * such payload.
   */
  redeliver(hookUuid: string, id: string, now: number): Promise<DeliveryRecord | undefined>;
  /** How many payloads are pending, and the age of the oldest at the head of a queue. */
  pendingSummary(): Promise<PendingSummary>;
  /**
   * Forget delivered and failed payloads created before `before` (ms), and let go of delivered
   * bodies past their window as of `now` (ms, when given); returns how many payloads were forgotten.
   */
  prune(before: number, now?: number): Promise<number>;
}

export const DELIVERY_QUEUE = Symbol.for('stackhooks.DeliveryQueue');
