// Arbitrary hooks as the matchers take them: a uuid and its filters.
import fc from 'fast-check';
import type { EventFilter } from '../../../core/hooks/definition.js';
import { arbitraryEventFilter, type EventFilterOptions } from './event-filter.js';

/** A hook as HookIndex and matchBlockReference take it. */
export type ArbitraryHook = { uuid: string; filters: EventFilter[] };

/** Options of arbitraryHook and arbitraryHookSet. */
export type HookOptions = EventFilterOptions & {
  /** The most filters a hook has; 3 by default (at least 1, as `filters.events` requires). */
  maxFilters?: number;
};

/** A hook: a v4 uuid and 1 to `maxFilters` filters from arbitraryEventFilter. */
export function arbitraryHook(options: HookOptions = {}): fc.Arbitrary<ArbitraryHook> {
  return fc.record({
    uuid: fc.uuid({ version: 4 }),
    filters: fc.array(arbitraryEventFilter(options), { minLength: 1, maxLength: options.maxFilters ?? 3 }),
  });
}

/** Hooks with distinct uuids, up to `maxHooks` (20 by default). */
export function arbitraryHookSet(
  options: HookOptions & { maxHooks?: number } = {},
): fc.Arbitrary<ArbitraryHook[]> {
  return fc.uniqueArray(arbitraryHook(options), {
    selector: (hook) => hook.uuid,
    maxLength: options.maxHooks ?? 20,
  });
}
