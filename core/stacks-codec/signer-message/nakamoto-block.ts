import { createHash } from 'node:crypto';
import { BytesReader, deserializeTransaction } from '@stacks/transactions';
import { SignerWireError, type WireReader } from './wire-reader.js';

/** A Nakamoto block header as 1.x wrote it in signer messages (hashes and signatures as `0x` hex). */
export type NakamotoBlockHeaderJson = {
  version: number;
  chain_length: number;
  burn_spent: number;
  consensus_hash: string;
  parent_block_id: string;
  tx_merkle_root: string;
  state_index_root: string;
  timestamp: number;
  miner_signature: string;
  signer_signature: string[];
  /** The serialized bit vector (`u16` length, `u32` byte count, bytes), as hex. */
  pox_treatment: string;
};

/**
 * A Nakamoto block in a `BlockProposal` or `BlockPushed`. `transactions` is empty, as 1.x left it:
 * the transactions are read (to find where the block ends) but not shown.
 */
export type NakamotoBlockJson = {
  header: NakamotoBlockHeaderJson;
  block_hash: string;
  index_block_hash: string;
  transactions: never[];
};

// Header versions from the Epoch 4.0 one on carry the problematic-transaction markers; the high
// bit flags a shadow block and is not part of the version number.
const FIRST_VERSION_WITH_PROBLEMATIC_TXS = 1;
const SIGNATURE_BYTES = 65;

/** Read a Nakamoto block (header, then its transactions) and derive its block hash and index block hash. */
export function readNakamotoBlock(reader: WireReader): NakamotoBlockJson {
  const start = reader.position;
  const version = reader.u8();
  const chain_length = reader.u64();
  const burn_spent = reader.u64();
  const consensus_hash = reader.hex(20);
  const parent_block_id = reader.hex(32);
  const tx_merkle_root = reader.hex(32);
  const state_index_root = reader.hex(32);
  const timestamp = reader.u64();
  const miner_signature = reader.hex(SIGNATURE_BYTES);
  const signedUpTo = reader.position;
  const signer_signature = reader.list(() => reader.hex(SIGNATURE_BYTES));
  const rest = reader.position;
  const poxBits = reader.u16();
  if (poxBits === 0) throw new SignerWireError('pox_treatment has no bits');
  const poxBytes = reader.u32();
  if (poxBytes !== Math.ceil(poxBits / 8))
    throw new SignerWireError(`pox_treatment has ${poxBytes} bytes for ${poxBits} bits`);
  reader.skip(poxBytes);
  const pox_treatment = `0x${Buffer.from(reader.bytes.subarray(rest, reader.position)).toString('hex')}`;
  if ((version & 0x7f) >= FIRST_VERSION_WITH_PROBLEMATIC_TXS) reader.list(() => reader.raw(5));
  // The block hash commits to every header field but the signers' signatures.
  const block_hash = sha512_256(
    reader.bytes.subarray(start, signedUpTo),
    reader.bytes.subarray(rest, reader.position),
  );
  skipTransactions(reader);
  return {
    header: {
      version,
      chain_length,
      burn_spent,
      consensus_hash,
      parent_block_id,
      tx_merkle_root,
      state_index_root,
      timestamp,
      miner_signature,
      signer_signature,
      pox_treatment,
    },
    block_hash,
    index_block_hash: sha512_256(hexBytes(block_hash), hexBytes(consensus_hash)),
    transactions: [],
  };
}

function skipTransactions(reader: WireReader): void {
  const count = reader.u32();
  if (count > reader.remaining)
    throw new SignerWireError(`${count} transactions in ${reader.remaining} bytes`);
  const txs = new BytesReader(reader.bytes.subarray(reader.position));
  try {
    for (let i = 0; i < count; i++) deserializeTransaction(txs);
  } catch (err) {
    throw new SignerWireError(`a transaction of the block does not decode: ${(err as Error).message}`);
  }
  reader.skip(txs.readOffset);
}

function sha512_256(...parts: Uint8Array[]): string {
  const hash = createHash('sha512-256');
  for (const part of parts) hash.update(part);
  return `0x${hash.digest('hex')}`;
}

function hexBytes(hex: string): Uint8Array {
  return Buffer.from(hex.slice(2), 'hex');
}
