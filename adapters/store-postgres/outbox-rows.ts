import type {
  AppliedBlockRef,
  BlockRef,
  DeliveryAttempt,
  DeliveryKind,
  DeliveryRecord,
  DeliveryState,
} from '../../core/delivery/delivery-record.js';
import type { DuePayload, OutgoingPayload } from '../../core/ports/delivery-queue.js';

/** The columns a delivery record is read from. */
export const RECORD_COLUMNS =
  'id, hook_uuid, kind, state, apply_refs, rollback_refs, created_at, next_attempt_at, failure_reason, held_reason, attempts';

/** A row of `outbox_payloads` as `RECORD_COLUMNS` reads it (bigints arrive as strings). */
export type RecordRow = {
  id: string;
  hook_uuid: string;
  kind: DeliveryKind;
  state: DeliveryState;
  apply_refs: AppliedBlockRef[];
  rollback_refs: BlockRef[];
  created_at: string;
  next_attempt_at: string | null;
  failure_reason: string | null;
  held_reason: string | null;
  attempts: DeliveryAttempt[];
};

/** A payload due for sending as `outbox_lease_due` (migration 006) returns it. */
export type PayloadRow = Omit<
  RecordRow,
  'state' | 'next_attempt_at' | 'failure_reason' | 'held_reason' | 'attempts'
> & {
  owner: string;
  url: string;
  body: string | null;
  attempt_count: number;
};

/** A delivery record from its row. */
export function recordOfRow(row: RecordRow): DeliveryRecord {
  return {
    id: row.id,
    hook_uuid: row.hook_uuid,
    kind: row.kind,
    state: row.state,
    apply: row.apply_refs,
    rollback: row.rollback_refs,
    created_at: Number(row.created_at),
    next_attempt_at: row.next_attempt_at === null ? null : Number(row.next_attempt_at),
    failure_reason: row.failure_reason,
    held_reason: row.held_reason,
    attempts: row.attempts,
  };
}

/** The payload to send from its row, its body the text it is sent as (unparsed); a pending payload always has its body. */
export function payloadOfRow(row: PayloadRow): DuePayload {
  if (row.body === null) throw new Error(`outbox invariant broken: payload ${row.id} has no body`);
  return {
    id: row.id,
    hook_uuid: row.hook_uuid,
    owner: row.owner,
    url: row.url,
    kind: row.kind,
    apply: row.apply_refs,
    rollback: row.rollback_refs,
    body_text: row.body,
    created_at: Number(row.created_at),
  };
}

/** The block refs of a payload as stored: only the fields the port names, whatever else the caller's objects carry. */
export function refsOf(payload: OutgoingPayload): { apply: string; rollback: string } {
  return {
    apply: JSON.stringify(
      payload.apply.map((ref) => ({ index: ref.index, hash: ref.hash, tx_indexes: ref.tx_indexes })),
    ),
    rollback: JSON.stringify(payload.rollback.map((ref) => ({ index: ref.index, hash: ref.hash }))),
  };
}

/** An attempt as stored in the `attempts` array (a one-element array, to append with `||`); null for none. */
export function attemptJson(attempt: DeliveryAttempt | null): string | null {
  if (!attempt) return null;
  const { at, status_code, error, latency_ms, lane } = attempt;
  return JSON.stringify([{ at, status_code, error, latency_ms, ...(lane && { lane }) }]);
}
