// Helpers shared by the archive's tests: a chain of minimal blocks, and a full consistency check.
import { expect } from 'chai';
import type { BlockHeader } from '../../../core/chain/block-header.js';
import type { NormalizedBlock } from '../../../core/chain/block.js';
import type { BlockStore } from '../../../core/ports/block-store.js';
import { ChainBuilder, minimalNormalizedBlock } from '../../support/block-builder.js';

/** `count` minimal blocks on one branch of a chain labelled `label` (the same label gives the same blocks). */
export function minimalChain(label: string, count: number): NormalizedBlock[] {
  const chain = new ChainBuilder({ label });
  return Array.from({ length: count }, () => minimalNormalizedBlock(chain.next()));
}

/** The header of a normalized block. */
export function headerOfStored(block: NormalizedBlock): BlockHeader {
  return {
    hash: block.block_identifier.hash,
    height: block.block_identifier.index,
    parent_hash: block.parent_block_identifier.hash,
  };
}

/**
 * Check that the store is whole: the tip is canonical, every height from the tip down to `lowest`
 * has a readable canonical block whose parent is the canonical block below, and nothing is
 * canonical above the tip.
 */
export async function expectConsistent(store: BlockStore, lowest: number): Promise<BlockHeader> {
  const tip = await store.tip();
  expect(tip, 'tip').to.not.equal(undefined);
  const top = tip as BlockHeader;
  expect(await store.isCanonical(top.hash)).to.equal(true);
  expect(await store.getCanonicalAt(top.height + 1)).to.equal(undefined);
  let expected = top.hash;
  for (let height = top.height; height >= lowest; height--) {
    const block = await store.getCanonicalAt(height);
    expect(block?.block_identifier.hash, `canonical block at ${height}`).to.equal(expected);
    expected = (block as NormalizedBlock).parent_block_identifier.hash;
  }
  return top;
}
