import type { ReceiverStanding } from '../delivery/receiver-standing.js';
import type { HookDefinition } from './definition.js';

/** Where a hook is in its life; `enabled` is kept apart. */
export type HookStatusValue = 'new' | 'streaming' | 'expired' | 'interrupted';

export const HOOK_STATUS_VALUES: readonly HookStatusValue[] = ['new', 'streaming', 'expired', 'interrupted'];

/** The `status` object of a hook record; times are unix seconds. */
export type HookStatus = {
  status: HookStatusValue;
  enabled: boolean;
  created_at: number;
  last_evaluated_at: number | null;
  last_evaluated_block_height: number | null;
  last_occurrence_at: number | null;
  last_occurrence_block_height: number | null;
  evaluated_block_count: number;
  occurrence_count: number;
};

/** When and why delivery interrupted a hook, and the first block it missed (a resume starts there). */
export type HookInterruption = {
  first_missed_block_height: number;
  /** Unix seconds. */
  interrupted_at: number;
  reason: string;
};

/**
 * A resume under way: the missed blocks are sent from `from_block_height`; `next_block_height` is
 * next; `rewinds` counts the reorganizations that sent it back (each sends new blocks, new ids).
 */
export type HookResume = { from_block_height: number; next_block_height: number; rewinds?: number };

/**
 * Where a hook stands with delivery beyond Hiro's status (a stackhooks extension, shown in the
 * record only when set): the interruption a resume can start from, and a resume under way.
 */
export type HookDeliveryState = { interruption?: HookInterruption; resuming?: HookResume };

/**
 * The hook as the API returns it; `delivery` only when an interruption or a resume is on record, or
 * delivery treats its receiver as slow or its origin's circuit is not closed (`receiver`, not stored).
 */
export type HookRecord = {
  uuid: string;
  definition: HookDefinition;
  status: HookStatus;
  delivery?: HookDeliveryState & { receiver?: ReceiverStanding };
};

/** The hook as it is stored: the API record plus its owner and a creation sequence for stable ordering. */
export type StoredHook = HookRecord & {
  owner: string;
  /** Milliseconds at creation; with `uuid`, orders a listing oldest first. */
  created_at_ms: number;
};

/** The public view of a stored hook (the owner never leaves the service), with its receiver's standing if given. */
export function toHookRecord(hook: StoredHook, receiver?: ReceiverStanding): HookRecord {
  const { interruption, resuming } = hook.delivery ?? {};
  const delivery =
    interruption || resuming || receiver
      ? {
          delivery: {
            ...(interruption && { interruption }),
            ...(resuming && { resuming }),
            ...(receiver && { receiver }),
          },
        }
      : {};
  return { uuid: hook.uuid, definition: hook.definition, status: hook.status, ...delivery };
}

/** Whether a resume is sending the hook's missed blocks (it joins the live stream after). */
export function isResuming(hook: StoredHook): boolean {
  return hook.delivery?.resuming !== undefined;
}
