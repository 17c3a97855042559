import { createHash } from 'node:crypto';
import { invalidInput } from '../hooks/errors.js';

const BLOCK_HASH = /^(0x)?[0-9a-fA-F]{64}$/;
const CONSENSUS_HASH = /^(0x)?[0-9a-fA-F]{40}$/;

const bytes = (hex: string) => Buffer.from(hex.replace(/^0x/, ''), 'hex');

/**
 * The `index_block_hash` a Stacks node derives for a block: SHA-512/256 of the block hash (32 bytes)
 * followed by the consensus hash of its sortition (20 bytes), 0x-prefixed lowercase hex. The same
 * for blocks before and after Nakamoto.
 */
export function deriveIndexBlockHash(blockHash: string, consensusHash: string): string {
  const digest = createHash('sha512-256').update(bytes(blockHash)).update(bytes(consensusHash)).digest('hex');
  return `0x${digest}`;
}

/**
 * Refuse a body whose `index_block_hash` is not the one its `block_hash` and `consensus_hash`
 * derive, so no body can take the id of another block. Bodies without a consensus hash (nodes
 * before it was sent) cannot be checked and pass. Throws a validation error naming the field.
 */
export function checkIndexBlockHash(body: {
  index_block_hash?: unknown;
  block_hash?: unknown;
  consensus_hash?: unknown;
}): void {
  const { index_block_hash: given, block_hash: blockHash, consensus_hash: consensusHash } = body;
  if (consensusHash === undefined || consensusHash === null) return;
  if (typeof consensusHash !== 'string' || !CONSENSUS_HASH.test(consensusHash))
    throw invalidInput([{ field: 'consensus_hash', message: 'must be a 20-byte hex hash' }]);
  if (typeof blockHash !== 'string' || !BLOCK_HASH.test(blockHash))
    throw invalidInput([{ field: 'block_hash', message: 'must be a 32-byte hex hash' }]);
  const derived = deriveIndexBlockHash(blockHash, consensusHash);
  const normalized = typeof given === 'string' ? given.toLowerCase().replace(/^(0x)?/, '0x') : given;
  if (normalized !== derived) {
    throw invalidInput([
      {
        field: 'index_block_hash',
        message: `must be ${derived}, the hash of block_hash and consensus_hash: this body claims another block's id`,
      },
    ]);
  }
}
