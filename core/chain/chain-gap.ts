import type { BlockHeader } from './block-header.js';

/**
 * Heights missing from the canonical chain: a block arrived above the tip whose parent was never
 * seen (stackhooks was down while the node moved on, a recording starts mid-chain), so it became the
 * tip at once and the heights below it wait to be filled by an import or by the node.
 */
export type ChainGap = {
  /** The lowest missing height. */
  from_height: number;
  /** The highest missing height: the height of the parent `above` waits for. */
  to_height: number;
  /** The canonical block just above the gap; its parent (`above.parent_hash`) is the missing block at `to_height`. */
  above: BlockHeader;
  /** The block whose arrival opened the gap (index_block_hash). */
  opened_by: string;
  /** When the gap opened (ms since the epoch, as the caller of the chain model gave it). */
  opened_at: number;
};

/** How many heights a gap misses. */
export function missingHeights(gap: ChainGap): number {
  return gap.to_height - gap.from_height + 1;
}

/** The gap that misses `height`, if any. */
export function gapAt(gaps: readonly ChainGap[], height: number): ChainGap | undefined {
  return gaps.find((gap) => gap.from_height <= height && height <= gap.to_height);
}

/** The gap waiting for the block with this hash (its `above` names it as parent), if any. */
export function gapAwaiting(gaps: readonly ChainGap[], hash: string): ChainGap | undefined {
  return gaps.find((gap) => gap.above.parent_hash === hash);
}

/** Gaps lowest first, as views keep them. */
export function sortGaps(gaps: ChainGap[]): ChainGap[] {
  return gaps.sort((a, b) => a.from_height - b.from_height);
}
