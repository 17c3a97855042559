import { MAX_BLOCK_HEIGHT, tryNormalizeBlockHash } from '../chain/block-identity.js';
import { invalidInput } from '../hooks/errors.js';
import { checkIndexBlockHash } from './index-block-hash.js';
import type { NodeBlock } from './node-block.js';

/**
 * Refuse a `/new_block` body that cannot become a block at all, before anything reads it: no
 * object, an id or parent id that is no 32-byte hash, a height no chain has, or an
 * `index_block_hash` that is not the one its `block_hash` and `consensus_hash` derive. What is left
 * can always be archived and connected (a transaction it cannot read is kept as unreadable).
 * Throws a validation error naming the field.
 */
export function checkNodeBlock(body: unknown): NodeBlock {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw invalidInput([{ field: 'body', message: 'must be a JSON object' }]);
  const block = body as Record<string, unknown>;
  for (const field of ['index_block_hash', 'parent_index_block_hash']) {
    if (tryNormalizeBlockHash(block[field]) === undefined)
      throw invalidInput([{ field, message: 'must be a 32-byte hex hash' }]);
  }
  const height = block.block_height;
  if (typeof height !== 'number' || !Number.isSafeInteger(height) || height < 0)
    throw invalidInput([{ field: 'block_height', message: 'must be a non-negative integer' }]);
  if (height > MAX_BLOCK_HEIGHT)
    throw invalidInput([
      { field: 'block_height', message: `must be at most ${MAX_BLOCK_HEIGHT}: no chain is that high` },
    ]);
  checkIndexBlockHash(block);
  return body as NodeBlock;
}

/** The id and height a body claims, as given, for the quarantine (null where there is none). */
export function claimedIdentity(body: unknown): {
  index_block_hash: string | null;
  block_height: number | null;
} {
  const block = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const hash = block.index_block_hash;
  const height = block.block_height;
  return {
    index_block_hash: typeof hash === 'string' ? hash.slice(0, 200) : null,
    block_height: typeof height === 'number' && Number.isSafeInteger(height) ? height : null,
  };
}
