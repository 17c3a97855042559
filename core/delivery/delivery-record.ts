import type { Lane } from './delivery-lanes.js';

/**
 * Live payloads come from the chain; evaluation payloads from `POST /me/{uuid}/evaluate`; backfill
 * payloads from a backfill's scan of the archive.
 */
export type DeliveryKind = 'live' | 'evaluation' | 'backfill';

/** A block a payload carries, for the delivery log. */
export type BlockRef = { index: number; hash: string };

/** A block a payload applies, with the transactions (indexes into the block) the hook was sent. */
export type AppliedBlockRef = BlockRef & { tx_indexes: number[] };

/** Where a payload is: waiting (first try or a retry), received by the target, or given up on. */
export type DeliveryState = 'pending' | 'delivered' | 'failed';

export const DELIVERY_STATES: readonly DeliveryState[] = ['pending', 'delivered', 'failed'];

/** One try to POST a payload: when, and what came back (a status code, or an error). */
export type DeliveryAttempt = {
  /** Milliseconds since the unix epoch when the attempt started. */
  at: number;
  /** The HTTP status the target answered, when it answered. */
  status_code: number | null;
  /** What went wrong, when the attempt failed (`connection refused`, `timeout after 10000 ms`, `HTTP 500`, …). */
  error: string | null;
  latency_ms: number;
  /** The lane the attempt ended in: `slow` when its receiver took long (absent in logs written before lanes). */
  lane?: Lane;
};

/** A payload as the delivery log shows it: its state, its blocks and every attempt. */
export type DeliveryRecord = {
  id: string;
  hook_uuid: string;
  kind: DeliveryKind;
  state: DeliveryState;
  apply: AppliedBlockRef[];
  rollback: BlockRef[];
  created_at: number;
  /** When the next attempt is due (pending only), ms since the epoch. */
  next_attempt_at: number | null;
  /** Why it was given up on (failed only). */
  failure_reason: string | null;
  /** Why a pending payload waits beyond its retry schedule (its origin's circuit is open, or its lane is full); null otherwise. */
  held_reason: string | null;
  attempts: DeliveryAttempt[];
};
