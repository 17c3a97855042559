import type { BlockHeader } from './block-header.js';

/**
 * What one block did to the canonical chain: the blocks that left it, newest first, then the blocks
 * that joined it, oldest first. Replaying every update in order rebuilds the canonical chain exactly.
 */
export type ChainUpdate = {
  rollback: BlockHeader[];
  apply: BlockHeader[];
};

/** The update of a block that changed nothing: a duplicate, or an orphan held until its parent arrives. */
export function noChainChange(): ChainUpdate {
  return { rollback: [], apply: [] };
}

/** True when the update neither rolls back nor applies a block. */
export function isNoChainChange(update: ChainUpdate): boolean {
  return update.rollback.length === 0 && update.apply.length === 0;
}
