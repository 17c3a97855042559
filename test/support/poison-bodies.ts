// `/new_block` bodies that can never become a block, made from a good builder block so that each
// fails for one reason only: their ids are derived as the node derives them, unless the point is a
// wrong id.
import { createHash } from 'node:crypto';
import { deriveIndexBlockHash } from '../../core/stacks-codec/index-block-hash.js';
import type { NodeBlock } from './block-builder.js';

let made = 0;

/** A copy of `block` under a fresh block hash, its id derived from it; `changes` applied after. */
function renamed(block: NodeBlock, changes: Partial<NodeBlock> = {}): NodeBlock {
  const blockHash = `0x${createHash('sha256').update(`poison ${++made}`).digest('hex')}`;
  const consensusHash = block.consensus_hash ?? `0x${'c'.repeat(40)}`;
  return {
    ...block,
    block_hash: blockHash,
    consensus_hash: consensusHash,
    index_block_hash: deriveIndexBlockHash(blockHash, consensusHash),
    ...changes,
  };
}

/** A body at a height no chain has (2^32, 1e15), on `parent`. */
export function atHeight(parent: NodeBlock, height: number): NodeBlock {
  return renamed(parent, { block_height: height, parent_index_block_hash: parent.index_block_hash });
}

/** A body one above `base` whose parent is itself. */
export function ownParent(base: NodeBlock): NodeBlock {
  const body = renamed(base, { block_height: base.block_height + 1 });
  return { ...body, parent_index_block_hash: body.index_block_hash };
}

/**
 * Two bodies naming each other as parent, at `base`'s height and one above: the first is an
 * ordinary block with an unknown parent (held, at or below the tip), the second closes the cycle.
 */
export function cycle(base: NodeBlock): [NodeBlock, NodeBlock] {
  const low = renamed(base, { block_height: base.block_height });
  const high = renamed(base, {
    block_height: base.block_height + 1,
    parent_index_block_hash: low.index_block_hash,
  });
  return [{ ...low, parent_index_block_hash: high.index_block_hash }, high];
}

/** A body that claims `victim`'s id (a block yet to come) while its own hashes derive another. */
export function squatting(victim: NodeBlock, parent: NodeBlock): NodeBlock {
  return renamed(parent, {
    block_height: parent.block_height + 1,
    parent_index_block_hash: parent.index_block_hash,
    index_block_hash: victim.index_block_hash,
  });
}

/** A copy of `block` with the raw bytes of transaction `index` replaced by bytes no decoder reads. */
export function withUndecodableTransaction(block: NodeBlock, index: number): NodeBlock {
  const copy: NodeBlock = { ...block, transactions: [...block.transactions] };
  copy.transactions[index] = { ...copy.transactions[index], raw_tx: '0xdeadbeef' };
  return copy;
}
