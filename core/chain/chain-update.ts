import type { BlockHeader } from './block-header.js';
import type { ChainGap } from './chain-gap.js';

/**
 * What one block did to the canonical chain: the blocks that left it, newest first, then the blocks
 * that joined it, oldest first. Replaying every update in order rebuilds the canonical chain, except
 * the blocks that filled a gap: they join without an apply (filling delivers nothing), and may later
 * leave in a rollback like any canonical block. `notes` tell what else happened (gaps, orphans);
 * the field is absent when there is nothing to tell.
 */
export type ChainUpdate = {
  rollback: BlockHeader[];
  apply: BlockHeader[];
  notes?: ChainNote[];
  /** Set by a store that already held the block: nothing was stored (absent otherwise). */
  duplicate?: true;
};

/** Something the chain model did besides moving the canonical chain, for logs and counters. */
export type ChainNote =
  | { kind: 'gap_opened'; gap: ChainGap }
  /** `filled`: the missing blocks arrived; `switched`: the chain moved to a branch without the hole; `merged`: a wider gap took it in. */
  | { kind: 'gap_closed'; gap: ChainGap; how: 'filled' | 'switched' | 'merged'; by: string }
  | { kind: 'gap_narrowed'; gap: ChainGap; previous: ChainGap; by: string }
  | { kind: 'orphan_held'; block: BlockHeader; held: number }
  | { kind: 'orphan_dropped'; block: BlockHeader; reason: 'too_many' | 'too_deep' };

/** The update of a block that changed nothing: a duplicate, or an orphan held until its parent arrives. */
export function noChainChange(): ChainUpdate {
  return { rollback: [], apply: [] };
}

/** The update of a block a store already holds: nothing stored, nothing changed. */
export function alreadyStored(): ChainUpdate {
  return { rollback: [], apply: [], duplicate: true };
}

/** True when the update neither rolls back nor applies a block. */
export function isNoChainChange(update: ChainUpdate): boolean {
  return update.rollback.length === 0 && update.apply.length === 0;
}
