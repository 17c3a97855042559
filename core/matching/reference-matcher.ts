import type { NormalizedBlock } from '../chain/block.js';
import type { EventFilter } from '../hooks/definition.js';
import type { BlockMatches } from './hook-index.js';
import { matchesAnyFilter } from './match-transaction.js';

/** A hook as the matchers see it: its uuid and its `filters.events`. */
export type MatchableHook = { uuid: string; filters: readonly EventFilter[] };

/**
 * The block's matches by the plain loop: every hook against every transaction. Obviously right and
 * as slow as the hook count, it is what the index is tested and measured against.
 */
export function matchBlockReference(hooks: readonly MatchableHook[], block: NormalizedBlock): BlockMatches {
  const matches: BlockMatches = new Map();
  for (const hook of hooks) {
    const indexes: number[] = [];
    block.transactions.forEach((tx, index) => {
      if (matchesAnyFilter(hook.filters, tx)) indexes.push(index);
    });
    if (indexes.length > 0) matches.set(hook.uuid, indexes);
  }
  return matches;
}
