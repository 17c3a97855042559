import type { StoredBackfill } from '../backfill/backfill.js';
import type { StoredHook } from '../hooks/record.js';
import type { PredicateNetwork, StacksScope } from './predicate.js';

/** Blocks after an expiring occurrence before 1.x called the expiry confirmed (its confirmation depth). */
const CONFIRMATIONS = 7;

/** A predicate's status as 1.x reports it: `{type, info}`, with `new` bare. */
export type PredicateStatusReport =
  | { type: 'new' }
  | {
      type: 'scanning';
      info: {
        number_of_blocks_to_scan: number;
        number_of_blocks_evaluated: number;
        number_of_times_triggered: number;
        last_occurrence: number | null;
        last_evaluated_block_height: number;
      };
    }
  | {
      type: 'streaming';
      info: {
        last_occurrence: number | null;
        last_evaluation: number;
        number_of_times_triggered: number;
        number_of_blocks_evaluated: number;
        last_evaluated_block_height: number;
      };
    }
  | {
      type: 'unconfirmed_expiration' | 'confirmed_expiration';
      info: {
        number_of_blocks_evaluated: number;
        number_of_times_triggered: number;
        last_occurrence: number | null;
        last_evaluated_block_height: number;
        expired_at_block_height: number;
      };
    }
  | { type: 'interrupted'; info: string };

/** A predicate as `GET /v1/chainhooks` lists it. */
export type PredicateRecord = {
  chain: 'stacks';
  uuid: string;
  network: PredicateNetwork;
  predicate: StacksScope;
  status: PredicateStatusReport;
  enabled: boolean;
};

/**
 * The 1.x view of a hook registered through the 1.x API; `tipHeight` (the live stream's last height,
 * when known) tells a confirmed expiry from an unconfirmed one, and `scan` is the backfill of its
 * history from `start_block`, when it has one.
 */
export function toPredicateRecord(
  hook: StoredHook,
  tipHeight: number | null,
  scan?: StoredBackfill,
): PredicateRecord {
  const { definition, status } = hook;
  const predicate = definition.chainhook_v1!.networks[definition.network]!.if_this;
  return {
    chain: 'stacks',
    uuid: hook.uuid,
    network: definition.network,
    predicate,
    status: statusReport(hook, tipHeight, scan),
    enabled: status.enabled,
  };
}

function statusReport(
  hook: StoredHook,
  tipHeight: number | null,
  scan?: StoredBackfill,
): PredicateStatusReport {
  const { status } = hook;
  const scanning = scan?.state === 'queued' || scan?.state === 'running';
  // The history's counts add to the live stream's, as 1.x carried its scan's counts into streaming.
  const scanned = scan && scan.state !== 'cancelled' && scan.state !== 'failed' ? scan : undefined;
  const lastOccurrence =
    status.last_occurrence_at ??
    (scanned && scanned.blocks_matched > 0 && scanned.started_at !== null
      ? Math.floor(scanned.started_at / 1000)
      : null);
  const counts = {
    number_of_blocks_evaluated: status.evaluated_block_count + (scanned?.blocks_scanned ?? 0),
    number_of_times_triggered: status.occurrence_count + (scanned?.blocks_matched ?? 0),
    last_occurrence: lastOccurrence,
  };
  const scannedTo = scanned ? Math.min(scanned.next_block_height - 1, scanned.to_block_height) : 0;
  const evaluated = status.last_evaluated_block_height ?? scannedTo;
  if (status.status !== 'interrupted' && scan && scanning) {
    return {
      type: 'scanning',
      info: {
        number_of_blocks_to_scan: scan.to_block_height - scan.from_block_height + 1,
        ...counts,
        last_evaluated_block_height: Math.max(scannedTo, scan.from_block_height - 1, 0),
      },
    };
  }
  const end = hook.definition.chainhook_v1?.networks[hook.definition.network]?.end_block;
  const reached = Math.max(tipHeight ?? 0, evaluated, scannedTo);
  if (status.status !== 'interrupted' && status.status !== 'expired' && end !== undefined && reached >= end) {
    // Past end_block nothing more is delivered: 1.x expired the predicate there.
    const confirmed = tipHeight !== null && tipHeight >= end + CONFIRMATIONS;
    return {
      type: confirmed ? 'confirmed_expiration' : 'unconfirmed_expiration',
      info: {
        ...counts,
        last_evaluated_block_height: Math.min(evaluated, end),
        expired_at_block_height: end,
      },
    };
  }
  // A finished scan streams, as in 1.x, before the first live block is evaluated.
  const state = status.status === 'new' && scanned?.state === 'done' ? 'streaming' : status.status;
  switch (state) {
    case 'new':
      return { type: 'new' };
    case 'interrupted':
      return { type: 'interrupted', info: hook.delivery?.interruption?.reason ?? 'delivery failed' };
    case 'expired': {
      const at = status.last_occurrence_block_height ?? evaluated;
      const confirmed = tipHeight !== null && tipHeight >= at + CONFIRMATIONS;
      return {
        type: confirmed ? 'confirmed_expiration' : 'unconfirmed_expiration',
        info: { ...counts, last_evaluated_block_height: evaluated, expired_at_block_height: at },
      };
    }
    case 'streaming':
      return {
        type: 'streaming',
        info: {
          last_occurrence: counts.last_occurrence,
          last_evaluation: status.last_evaluated_at ?? Math.floor((scanned?.finished_at ?? 0) / 1000),
          number_of_times_triggered: counts.number_of_times_triggered,
          number_of_blocks_evaluated: counts.number_of_blocks_evaluated,
          last_evaluated_block_height: evaluated,
        },
      };
  }
}
