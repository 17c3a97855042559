import { expireIfLimitReached } from './lifecycle.js';
import { isResuming, type HookStatus, type StoredHook } from './record.js';

/**
 * How far the live stream has come: the live blocks evaluated since the store was created, and the
 * height and time (unix seconds) of the last one. Every live hook evaluates every live block, so a
 * hook's evaluation counters are a position on this stream rather than a write per hook per block.
 */
export type LiveProgress = {
  evaluated: number;
  last_height: number | null;
  last_at: number | null;
  /** The raw event log entry the last step was for, when it named one. */
  event_id?: number;
};

/**
 * What one chain event adds to the stream: its live blocks, the top one's height, and when (unix
 * seconds); `eventId`, the raw event log entry of the event, when it has one.
 */
export type LiveStep = { blocks: number; height: number; at: number; eventId?: number };

/** The progress of a stream that has evaluated nothing yet. */
export const LIVE_STREAM_START: LiveProgress = Object.freeze({
  evaluated: 0,
  last_height: null,
  last_at: null,
});

/** Whether a hook takes part in the live stream: enabled, not expired, and not catching up in a resume. */
export function isLive(hook: StoredHook): boolean {
  return hook.status.enabled && hook.status.status !== 'expired' && !isResuming(hook);
}

/**
 * The progress once `step` is taken: its blocks counted, and its event noted (a step without one
 * forgets the last). A step of no blocks and no event (a rollback alone) leaves it as it was.
 */
export function advanceProgress(progress: LiveProgress, step: LiveStep): LiveProgress {
  if (step.blocks <= 0 && step.eventId === undefined) return progress;
  const moved =
    step.blocks > 0
      ? { evaluated: progress.evaluated + step.blocks, last_height: step.height, last_at: step.at }
      : { evaluated: progress.evaluated, last_height: progress.last_height, last_at: progress.last_at };
  return step.eventId === undefined ? moved : { ...moved, event_id: step.eventId };
}

/**
 * The hook as the API shows it, from the hook as stored at stream position `base` (its counters are
 * exact as of `base`) and the stream's progress now: a live hook has evaluated every live block since,
 * which makes it `streaming`, and expired once that reaches its evaluation limit. The live stream
 * stores a hook whenever it reaches a limit, so the cap here only matters for a change that raced one.
 */
export function withLiveProgress(hook: StoredHook, base: number, progress: LiveProgress): StoredHook {
  const gained = progress.evaluated - base;
  if (gained <= 0 || !isLive(hook)) return hook;
  const limit = hook.definition.options?.expire_after_evaluations ?? Infinity;
  return expireIfLimitReached({
    ...hook,
    status: {
      ...hook.status,
      status: 'streaming',
      evaluated_block_count: Math.min(hook.status.evaluated_block_count + gained, limit),
      last_evaluated_at: progress.last_at,
      last_evaluated_block_height: progress.last_height,
    },
  });
}

/**
 * The status and `enabled` a hook is shown with (`withLiveProgress`), without making the hook: a
 * count of many hooks by status makes a copy only of a live hook with a limit to check.
 */
export function shownStatus(
  hook: StoredHook,
  base: number,
  progress: LiveProgress,
): Pick<HookStatus, 'status' | 'enabled'> {
  if (progress.evaluated <= base || !isLive(hook)) return hook.status;
  const options = hook.definition.options;
  if (options?.expire_after_evaluations === undefined && options?.expire_after_occurrences === undefined) {
    return STREAMING;
  }
  return withLiveProgress(hook, base, progress).status;
}

const STREAMING = Object.freeze({ status: 'streaming', enabled: true } as const);

/**
 * The stream position a hook read through `withLiveProgress` is exact at, which is the base to store
 * with whatever is written from it: a hook stored ahead of the progress that was read (a concurrent
 * live step wrote it) is exact at its own base.
 */
export function rebase(base: number, progress: LiveProgress): number {
  return Math.max(base, progress.evaluated);
}
