import type { HookDefinition, HookDefinitionUpdate } from './definition.js';
import { StackhooksError } from './errors.js';
import type { HookStatus, StoredHook } from './record.js';

/** Unix seconds from a millisecond clock reading. */
export function toUnixSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}

/** A new hook: enabled only when `options.enable_on_registration` is true, status `new`, counters at zero. */
export function createHook(
  owner: string,
  uuid: string,
  definition: HookDefinition,
  nowMs: number,
): StoredHook {
  return {
    uuid,
    owner,
    created_at_ms: nowMs,
    definition,
    status: {
      status: 'new',
      enabled: definition.options?.enable_on_registration === true,
      created_at: toUnixSeconds(nowMs),
      last_evaluated_at: null,
      last_evaluated_block_height: null,
      last_occurrence_at: null,
      last_occurrence_block_height: null,
      evaluated_block_count: 0,
      occurrence_count: 0,
    },
  };
}

/** Whether the counters have reached a limit set by `expire_after_evaluations` or `expire_after_occurrences`. */
export function hasReachedLimit(definition: HookDefinition, status: HookStatus): boolean {
  const evaluations = definition.options?.expire_after_evaluations;
  const occurrences = definition.options?.expire_after_occurrences;
  return (
    (evaluations != null && status.evaluated_block_count >= evaluations) ||
    (occurrences != null && status.occurrence_count >= occurrences)
  );
}

/** Expire the hook when a limit is reached: status `expired`, disabled; otherwise unchanged. */
export function expireIfLimitReached(hook: StoredHook): StoredHook {
  if (hook.status.status === 'expired' || !hasReachedLimit(hook.definition, hook.status)) return hook;
  return { ...hook, status: { ...hook.status, status: 'expired', enabled: false } };
}

/**
 * Enable or disable. Enabling an expired hook whose limit still holds is a conflict; enabling an
 * expired (limit lifted) or interrupted hook makes it `streaming` again. Disabling changes `enabled` only.
 */
export function setEnabled(hook: StoredHook, enabled: boolean): StoredHook {
  if (!enabled) return { ...hook, status: { ...hook.status, enabled: false } };
  if (hasReachedLimit(hook.definition, hook.status)) {
    throw new StackhooksError(
      'conflict',
      `hook ${hook.uuid} has expired: raise or remove options.expire_after_evaluations / ` +
        `options.expire_after_occurrences with PATCH /me/${hook.uuid} before enabling it`,
    );
  }
  const status = hook.status.status === 'new' ? 'new' : 'streaming';
  return { ...hook, status: { ...hook.status, status, enabled: true } };
}

/** Whether a bulk enable may touch this hook: bulk enabling skips hooks that are expired. */
export function canBulkEnable(hook: StoredHook): boolean {
  return hook.status.status !== 'expired';
}

/** Delivery retries are used up: the hook is `interrupted` and disabled until a user enables it. */
export function interruptHook(hook: StoredHook): StoredHook {
  return { ...hook, status: { ...hook.status, status: 'interrupted', enabled: false } };
}

/**
 * Apply a PATCH: each top-level field sent replaces the stored one whole. A limit lowered to the
 * counters expires the hook; a limit lifted above them takes an expired hook back to `streaming`
 * (still disabled: the user enables it).
 */
export function updateDefinition(hook: StoredHook, update: HookDefinitionUpdate): StoredHook {
  const definition: HookDefinition = { ...hook.definition };
  for (const [field, value] of Object.entries(update) as [keyof HookDefinition, unknown][]) {
    if (value !== undefined) (definition as Record<string, unknown>)[field] = value;
  }
  const updated: StoredHook = { ...hook, definition };
  if (hook.status.status === 'expired' && !hasReachedLimit(definition, hook.status)) {
    return { ...updated, status: { ...hook.status, status: 'streaming' } };
  }
  return expireIfLimitReached(updated);
}

/**
 * Count one live step for a hook that was live when it began: the step's blocks it may still
 * evaluate (up to `expire_after_evaluations`) and, when it was sent a payload (`occurrenceHeight`),
 * one occurrence; then expire it at a limit. Counting both before expiring keeps the occurrence of
 * the very block that reaches the evaluation limit, which was sent.
 */
export function countLiveStep(
  hook: StoredHook,
  heights: readonly number[],
  occurrenceHeight: number | undefined,
  nowMs: number,
): StoredHook {
  if (!hook.status.enabled || hook.status.status === 'expired') return hook;
  const limit = hook.definition.options?.expire_after_evaluations;
  const counted =
    limit == null ? heights : heights.slice(0, Math.max(0, limit - hook.status.evaluated_block_count));
  let status = hook.status;
  if (counted.length > 0) {
    status = {
      ...status,
      status: 'streaming',
      evaluated_block_count: status.evaluated_block_count + counted.length,
      last_evaluated_at: toUnixSeconds(nowMs),
      last_evaluated_block_height: counted[counted.length - 1],
    };
  }
  if (occurrenceHeight !== undefined) {
    status = {
      ...status,
      occurrence_count: status.occurrence_count + 1,
      last_occurrence_at: toUnixSeconds(nowMs),
      last_occurrence_block_height: occurrenceHeight,
    };
  }
  return status === hook.status ? hook : expireIfLimitReached({ ...hook, status });
}
