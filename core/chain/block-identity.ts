import { invalidInput } from '../hooks/errors.js';
import type { BlockHeader } from './block-header.js';
import type { NormalizedBlock } from './block.js';

const BLOCK_HASH = /^(0x)?[0-9a-f]{64}$/;

/**
 * The highest block height any store takes: a signed 32-bit integer (Postgres `integer`; the embedded
 * index keeps heights in 32 bits). Stacks is at a few million; a body above it is no block of any chain.
 */
export const MAX_BLOCK_HEIGHT = 2_147_483_647;

/** The hash as 0x-prefixed lowercase hex, or undefined when it is not a 32-byte hex hash. */
export function tryNormalizeBlockHash(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const hex = value.toLowerCase();
  if (!BLOCK_HASH.test(hex)) return undefined;
  return hex.startsWith('0x') ? hex : `0x${hex}`;
}

/** The hash as 0x-prefixed lowercase hex; a validation error naming `field` when it is not a 32-byte hash. */
export function normalizeBlockHash(value: unknown, field: string): string {
  const hash = tryNormalizeBlockHash(value);
  if (hash === undefined) throw invalidInput([{ field, message: 'must be a 32-byte hex hash' }]);
  return hash;
}

function checkHeight(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw invalidInput([{ field, message: 'must be a non-negative integer' }]);
  }
  if (value > MAX_BLOCK_HEIGHT) {
    throw invalidInput([{ field, message: `must be at most ${MAX_BLOCK_HEIGHT}: no chain is that high` }]);
  }
  return value;
}

/** A header with normalized hashes and a checked height; the chain model only ever sees these. */
export function normalizeHeader(header: BlockHeader): BlockHeader {
  return {
    hash: normalizeBlockHash(header.hash, 'hash'),
    height: checkHeight(header.height, 'height'),
    parent_hash: normalizeBlockHash(header.parent_hash, 'parent_hash'),
  };
}

/** The chain-model header of a normalized block, with errors naming the block's own fields. */
export function headerOfBlock(block: NormalizedBlock): BlockHeader {
  return {
    hash: normalizeBlockHash(block.block_identifier?.hash, 'block_identifier.hash'),
    height: checkHeight(block.block_identifier?.index, 'block_identifier.index'),
    parent_hash: normalizeBlockHash(block.parent_block_identifier?.hash, 'parent_block_identifier.hash'),
  };
}
