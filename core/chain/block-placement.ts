import { invalidInput } from '../hooks/errors.js';
import type { BlockHeader } from './block-header.js';
import { gapAwaiting } from './chain-gap.js';
import type { ChainView } from './chain-view.js';

/**
 * Refuse a block that can never take a place in the tree, before anything of it is written: its own
 * parent, a parent it would close a cycle with, or a height that does not sit one above the parent
 * it names (connected or stored) or one below the canonical block that names it as parent. The
 * canonical index keeps one block per height, and every link of the tree descending one height is
 * what makes every walk down it end. Storage calls this before it writes a block; the chain model
 * calls it too. Throws a validation error naming the field.
 */
export async function checkBlockPlacement(view: ChainView, header: BlockHeader): Promise<void> {
  if (header.parent_hash === header.hash) {
    throw invalidInput([
      {
        field: 'parent_block_identifier.hash',
        message: 'is the block’s own hash: a block cannot be its own parent',
      },
    ]);
  }
  const parent = (await view.header(header.parent_hash)) ?? (await view.storedHeader(header.parent_hash));
  if (parent !== undefined && parent.parent_hash === header.hash) {
    throw invalidInput([
      {
        field: 'parent_block_identifier.hash',
        message: `names block ${parent.hash}, whose parent is this block: a parent cycle`,
      },
    ]);
  }
  if (parent !== undefined && header.height !== parent.height + 1) {
    throw invalidInput([
      {
        field: 'block_identifier.index',
        message: `must be ${parent.height + 1}, one above its parent ${parent.hash} at ${parent.height}`,
      },
    ]);
  }
  const waiting = gapAwaiting(await view.gaps(), header.hash);
  if (waiting !== undefined && header.height !== waiting.above.height - 1) {
    throw invalidInput([
      {
        field: 'block_identifier.index',
        message: `must be ${waiting.above.height - 1}, one below block ${waiting.above.hash} at ${waiting.above.height}, which names it as parent`,
      },
    ]);
  }
}
