import type { HookDefinition, HookDefinitionUpdate } from './definition.js';
import { StackhooksError } from './errors.js';
import type { HookDeliveryState, HookInterruption, HookStatus, StoredHook } from './record.js';

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
 * expired (limit lifted) or interrupted hook makes it `streaming` again. Disabling changes `enabled`
 * only. Enabling resumes from the chain tip (Hiro's rule) and forgets the interruption, unless
 * `resume` asks for the blocks missed since it (a stackhooks extension): then the hook sends those
 * first, from its first missed block (or where a paused resume stopped), and joins the live stream
 * after. `resume` on a hook with nothing to resume from is a conflict.
 */
export function setEnabled(hook: StoredHook, enabled: boolean, resume = false): StoredHook {
  if (!enabled) return { ...hook, status: { ...hook.status, enabled: false } };
  if (hasReachedLimit(hook.definition, hook.status)) {
    throw new StackhooksError(
      'conflict',
      `hook ${hook.uuid} has expired: raise or remove options.expire_after_evaluations / ` +
        `options.expire_after_occurrences with PATCH /me/${hook.uuid} before enabling it`,
    );
  }
  const status = hook.status.status === 'new' ? 'new' : 'streaming';
  const enabledHook: StoredHook = { ...hook, status: { ...hook.status, status, enabled: true } };
  if (!resume) return withDelivery(enabledHook, undefined);
  const { interruption, resuming } = hook.delivery ?? {};
  const next = resuming?.next_block_height ?? interruption?.first_missed_block_height;
  if (next === undefined) {
    throw new StackhooksError(
      'conflict',
      `hook ${hook.uuid} has no missed blocks to resume from (it was not interrupted); enable it without "resume"`,
    );
  }
  const from = resuming?.from_block_height ?? next;
  return withDelivery(enabledHook, { resuming: { from_block_height: from, next_block_height: next } });
}

/** Whether a bulk enable may touch this hook: bulk enabling skips hooks that are expired. */
export function canBulkEnable(hook: StoredHook): boolean {
  return hook.status.status !== 'expired';
}

/**
 * Delivery retries are used up: the hook is `interrupted` and disabled until a user enables it,
 * and remembers the first block it missed (a resume under way stops there).
 */
export function interruptHook(hook: StoredHook, interruption?: HookInterruption): StoredHook {
  const interrupted = { ...hook, status: { ...hook.status, status: 'interrupted' as const, enabled: false } };
  const kept = interruption ?? hook.delivery?.interruption;
  return withDelivery(interrupted, kept && { interruption: kept });
}

/** A resume sent the blocks before `next`: it goes on from there (unless it moved meanwhile from `from`). */
export function advanceResume(hook: StoredHook, from: number, next: number): StoredHook {
  const resuming = hook.delivery?.resuming;
  if (!resuming || resuming.next_block_height !== from) return hook;
  return withDelivery(hook, { resuming: { ...resuming, next_block_height: next } });
}

/** The chain reorganized at `height`: a resume past it sends the new blocks from there. */
export function rewindResume(hook: StoredHook, height: number): StoredHook {
  const resuming = hook.delivery?.resuming;
  if (!resuming || resuming.next_block_height <= height) return hook;
  const rewinds = (resuming.rewinds ?? 0) + 1;
  return withDelivery(hook, { resuming: { ...resuming, next_block_height: height, rewinds } });
}

/** A resume reached the chain tip: the hook joins the live stream and forgets its interruption. */
export function finishResume(hook: StoredHook): StoredHook {
  return hook.delivery?.resuming ? withDelivery(hook, undefined) : hook;
}

/** The hook with `delivery` set, or without the field when there is nothing in it. */
function withDelivery(hook: StoredHook, delivery: HookDeliveryState | undefined): StoredHook {
  const { delivery: _old, ...rest } = hook;
  return delivery && (delivery.interruption || delivery.resuming) ? { ...rest, delivery } : rest;
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
  if (!hook.status.enabled || hook.status.status === 'expired' || hook.delivery?.resuming) return hook;
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
