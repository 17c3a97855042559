import type { StoredHook } from '../hooks/record.js';
import type { PredicateNetwork, StacksScope } from './predicate.js';

/** Blocks after an expiring occurrence before 1.x called the expiry confirmed (its confirmation depth). */
const CONFIRMATIONS = 7;

/** A predicate's status as 1.x reports it: `{type, info}`, with `new` bare. */
export type PredicateStatusReport =
  | { type: 'new' }
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
 * when known) tells a confirmed expiry from an unconfirmed one.
 */
export function toPredicateRecord(hook: StoredHook, tipHeight: number | null): PredicateRecord {
  const { definition, status } = hook;
  const predicate = definition.chainhook_v1!.networks[definition.network]!.if_this;
  return {
    chain: 'stacks',
    uuid: hook.uuid,
    network: definition.network,
    predicate,
    status: statusReport(hook, tipHeight),
    enabled: status.enabled,
  };
}

function statusReport(hook: StoredHook, tipHeight: number | null): PredicateStatusReport {
  const { status } = hook;
  const evaluated = status.last_evaluated_block_height ?? 0;
  const counts = {
    number_of_blocks_evaluated: status.evaluated_block_count,
    number_of_times_triggered: status.occurrence_count,
    last_occurrence: status.last_occurrence_at,
  };
  switch (status.status) {
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
          last_evaluation: status.last_evaluated_at ?? 0,
          number_of_times_triggered: counts.number_of_times_triggered,
          number_of_blocks_evaluated: counts.number_of_blocks_evaluated,
          last_evaluated_block_height: evaluated,
        },
      };
  }
}
