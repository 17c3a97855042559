import type { HookDefinition } from './definition.js';

/** Where a hook is in its life (compat.md section 5); `enabled` is kept apart. */
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

/** The hook as the API returns it. */
export type HookRecord = {
  uuid: string;
  definition: HookDefinition;
  status: HookStatus;
};

/** The hook as it is stored: the API record plus its owner and a creation sequence for stable ordering. */
export type StoredHook = HookRecord & {
  owner: string;
  /** Milliseconds at creation; with `uuid`, orders a listing oldest first. */
  created_at_ms: number;
};

/** The public view of a stored hook: the owner never leaves the service. */
export function toHookRecord(hook: StoredHook): HookRecord {
  return { uuid: hook.uuid, definition: hook.definition, status: hook.status };
}
