import type { DeliveryAttempt, DeliveryRecord, DeliveryState } from '../../core/delivery/delivery-record.js';
import type { OutgoingPayload, PayloadMeta } from '../../core/ports/delivery-queue.js';
import { sameApplied, sameBlocks } from './block-refs.js';
import type { Locator } from './payload-segments.js';

export type { PayloadMeta };

/** One payload in the outbox, as the state machine holds it (mutable, never handed out). */
export type OutboxEntry = {
  /** Enqueue order, the tie-break after `created_at` for the log and after the due time for heads. */
  seq: number;
  meta: PayloadMeta;
  /** Where the whole payload (body included) is kept; undefined once its body is let go. */
  loc: Locator | undefined;
  state: DeliveryState;
  next_attempt_at: number | null;
  failure_reason: string | null;
  /** Why a pending payload is held back (absent in journals written before holds existed). */
  held_reason?: string | null;
  /** Replaced, never edited in place: entries not yet attempted share `NO_ATTEMPTS`. */
  attempts: readonly DeliveryAttempt[];
  /** When the delivering attempt started: the start of the body's grace period. */
  delivered_at: number | null;
};

/** The attempts of every entry not attempted yet: one array for all, not one an entry. */
export const NO_ATTEMPTS: readonly DeliveryAttempt[] = Object.freeze([]);

/** The metadata of a payload, copied so later edits by the caller cannot reach the outbox. */
export function metaOf(payload: OutgoingPayload | PayloadMeta): PayloadMeta {
  return {
    id: payload.id,
    hook_uuid: payload.hook_uuid,
    owner: payload.owner,
    url: payload.url,
    kind: payload.kind,
    apply: payload.apply.map((ref) => ({
      index: ref.index,
      hash: ref.hash,
      tx_indexes: [...ref.tx_indexes],
    })),
    rollback: payload.rollback.map((ref) => ({ index: ref.index, hash: ref.hash })),
    created_at: payload.created_at,
    ...(payload.remembered === true && { remembered: true }),
  };
}

/**
 * The metadata of each payload queued, copied as `metaOf` copies it, but with its block lists shared
 * with the payload copied just before when they name the same blocks: a block's thousand payloads
 * then keep one list between them instead of a thousand. The outbox never edits a list it keeps,
 * and hands out copies only (`metaOf`, `recordOf`).
 */
export class MetaCopies {
  private last: PayloadMeta | undefined;

  /** The metadata of `payload`, its block lists shared with the last copy's where they are the same. */
  copy(payload: OutgoingPayload): PayloadMeta {
    const meta = metaOf(payload);
    const last = this.last;
    if (last !== undefined) {
      // The fresh lists are dropped at once, so only the shared ones are kept.
      if (sameApplied(meta.apply, last.apply)) meta.apply = last.apply;
      if (sameBlocks(meta.rollback, last.rollback)) meta.rollback = last.rollback;
    }
    this.last = meta;
    return meta;
  }
}

/** The record as the delivery log shows it: a copy the caller may keep. */
export function recordOf(entry: OutboxEntry): DeliveryRecord {
  const meta = metaOf(entry.meta);
  return {
    id: meta.id,
    hook_uuid: meta.hook_uuid,
    kind: meta.kind,
    state: entry.state,
    apply: meta.apply,
    rollback: meta.rollback,
    created_at: meta.created_at,
    next_attempt_at: entry.next_attempt_at,
    failure_reason: entry.failure_reason,
    held_reason: entry.held_reason ?? null,
    attempts: entry.attempts.map((attempt) => ({ ...attempt })),
  };
}

/** Log order: by creation time, then by enqueue order. */
export function logBefore(a: OutboxEntry, b: OutboxEntry): boolean {
  return a.meta.created_at < b.meta.created_at || (a.meta.created_at === b.meta.created_at && a.seq < b.seq);
}
