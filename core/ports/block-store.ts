import type { BlockHeader } from '../chain/block-header.js';
import type { NormalizedBlock } from '../chain/block.js';
import type { ChainUpdate } from '../chain/chain-update.js';

/**
 * Where blocks live, as a tree with its canonical chain. `put` stores a block and runs the chain
 * model (`applyBlockToChain`) in one step, so the chain always matches the stored blocks.
 *
 * The store does not extend `ChainView`: the view's writers (`setTip`, `setCanonicalHashAt`, ...) would
 * let a caller move the canonical chain without storing a block. Adapters implement the view
 * internally and expose only this port. Hash arguments may be in any case, with or without `0x`;
 * results always carry 0x-prefixed lowercase hex.
 */
export interface BlockStore {
  /** Store a block (a no-op for a hash already stored) and return what it did to the canonical chain. */
  put(block: NormalizedBlock): Promise<ChainUpdate>;
  /**
   * The same as `put` of each block in order, in as few round trips as the store can (archive
   * import writes in batches); optional: callers fall back to `put`.
   */
  putMany?(blocks: NormalizedBlock[]): Promise<ChainUpdate[]>;
  /** Any stored block, canonical, on a side branch or held as an orphan; undefined when unknown. */
  getByHash(hash: string): Promise<NormalizedBlock | undefined>;
  /** The canonical block at `height`, or undefined above the tip or below the first block. */
  getCanonicalAt(height: number): Promise<NormalizedBlock | undefined>;
  /** The canonical tip, or undefined while the store is empty. */
  tip(): Promise<BlockHeader | undefined>;
  /** True when the block is on the canonical chain. */
  isCanonical(hash: string): Promise<boolean>;
  /** How many distinct blocks are stored, canonical or not. */
  count(): Promise<number>;
}

/** Inversify token for the BlockStore. */
export const BLOCK_STORE = Symbol.for('stackhooks.BlockStore');
