import type { HookRecord, HookStatusValue } from './record.js';

/**
 * Which of an owner's hooks a listing shows (stackhooks' own query parameters of `GET /me`); the
 * given fields combine with AND, and an empty filter shows every hook.
 */
export type HookListFilter = {
  /** A part of the name, matched without regard to case. */
  name?: string;
  /** The status as the hook is shown (a live hook stored `new` reads `streaming`). */
  status?: HookStatusValue;
  enabled?: boolean;
};

/** Whether a filter narrows the listing at all. */
export function isListFiltered(filter: HookListFilter): boolean {
  return filter.name !== undefined || filter.status !== undefined || filter.enabled !== undefined;
}

/** Whether a hook, as it is shown, passes the filter. */
export function matchesListFilter(hook: HookRecord, filter: HookListFilter): boolean {
  if (filter.status !== undefined && hook.status.status !== filter.status) return false;
  if (filter.enabled !== undefined && hook.status.enabled !== filter.enabled) return false;
  if (filter.name === undefined) return true;
  return hook.definition.name.toLowerCase().includes(filter.name.toLowerCase());
}
