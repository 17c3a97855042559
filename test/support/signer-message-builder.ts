// Builds StackerDB posts the way a stacks node sends them: signer messages in stacks-core's
// encoding, each slot signed by its writer's key over the slot's metadata digest.
import { createHash } from 'node:crypto';
import { privateKeyToPublic, signWithKey } from '@stacks/transactions';
import type { NakamotoBlockHeaderJson } from '../../core/stacks-codec/signer-message/nakamoto-block.js';

/** A byte string being written, big-endian as stacks-core writes. */
class Writer {
  private readonly parts: Buffer[] = [];

  u8(value: number): this {
    return this.push(Buffer.from([value]));
  }

  u16(value: number): this {
    const b = Buffer.alloc(2);
    b.writeUInt16BE(value);
    return this.push(b);
  }

  u32(value: number): this {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(value);
    return this.push(b);
  }

  u64(value: number | bigint): this {
    const b = Buffer.alloc(8);
    b.writeBigUInt64BE(BigInt(value));
    return this.push(b);
  }

  hex(hex: string): this {
    return this.push(Buffer.from(hex.replace(/^0x/, ''), 'hex'));
  }

  text(value: string): this {
    const bytes = Buffer.from(value, 'utf8');
    return this.u32(bytes.length).push(bytes);
  }

  push(bytes: Buffer): this {
    this.parts.push(bytes);
    return this;
  }

  bytes(): Buffer {
    return Buffer.concat(this.parts);
  }
}

/** `n` bytes of hex, each `fill`. */
export function filled(n: number, fill: number): string {
  return `0x${Buffer.alloc(n, fill).toString('hex')}`;
}

/** The fields of a Nakamoto block header, as the builder writes them: `pox_bits` ones in pox_treatment. */
export type HeaderFields = Omit<NakamotoBlockHeaderJson, 'pox_treatment'> & { pox_bits: number };

/** A plausible header; `overrides` change any field. */
export function header(overrides: Partial<HeaderFields> = {}): HeaderFields {
  return {
    version: 0,
    chain_length: 120,
    burn_spent: 30_000,
    consensus_hash: filled(20, 0x11),
    parent_block_id: filled(32, 0x22),
    tx_merkle_root: filled(32, 0x33),
    state_index_root: filled(32, 0x44),
    timestamp: 1_730_000_000,
    miner_signature: filled(65, 0x01),
    signer_signature: [],
    pox_bits: 10,
    ...overrides,
  };
}

/** The header's bytes, and the bytes its block hash is taken over (all but the signers' signatures). */
export function headerBytes(h: HeaderFields): { all: Buffer; signed: Buffer } {
  const front = new Writer()
    .u8(h.version)
    .u64(h.chain_length)
    .u64(h.burn_spent)
    .hex(h.consensus_hash)
    .hex(h.parent_block_id)
    .hex(h.tx_merkle_root)
    .hex(h.state_index_root)
    .u64(h.timestamp)
    .hex(h.miner_signature)
    .bytes();
  const sigs = new Writer().u32(h.signer_signature.length);
  for (const s of h.signer_signature) sigs.hex(s);
  const poxBytes = Math.ceil(h.pox_bits / 8);
  const pox = new Writer().u16(h.pox_bits).u32(poxBytes).push(Buffer.alloc(poxBytes, 0xff)).bytes();
  return { all: Buffer.concat([front, sigs.bytes(), pox]), signed: Buffer.concat([front, pox]) };
}

/** A `BlockProposal` message of a block with no transactions. */
export function blockProposal(h: HeaderFields, burnHeight: number, rewardCycle: number): Buffer {
  return new Writer().u8(0).push(headerBytes(h).all).u32(0).u64(burnHeight).u64(rewardCycle).bytes();
}

/** A `BlockPushed` message of a block with no transactions. */
export function blockPushed(h: HeaderFields): Buffer {
  return new Writer().u8(2).push(headerBytes(h).all).u32(0).bytes();
}

/** A `BlockResponse` accepting a block, with its metadata and a versioned tail stacks-core adds. */
export function blockAccepted(signerSignatureHash: string, signature: string, serverVersion: string): Buffer {
  return new Writer()
    .u8(1)
    .u8(0)
    .hex(signerSignatureHash)
    .hex(signature)
    .text(serverVersion)
    .u8(5)
    .u32(8)
    .u64(0)
    .bytes();
}

/** A `BlockResponse` rejecting a block; `validation` is set for reject code 0 (validation failed). */
export function blockRejected(input: {
  reason: string;
  code: number;
  validation?: number;
  signerSignatureHash: string;
  chainId: number;
  signature: string;
  serverVersion: string;
}): Buffer {
  const w = new Writer().u8(1).u8(1).text(input.reason).u8(input.code);
  if (input.code === 0) w.u8(input.validation ?? 0);
  return w
    .hex(input.signerSignatureHash)
    .u32(input.chainId)
    .hex(input.signature)
    .text(input.serverVersion)
    .bytes();
}

/** A message of a kind 1.x never delivered: a `BlockPreCommit` of a signer signature hash. */
export function blockPreCommit(signerSignatureHash: string): Buffer {
  return new Writer().u8(7).hex(signerSignatureHash).bytes();
}

/** A slot of a `/stackerdb_chunks` post, as the node sends it (hex without `0x`). */
export type Slot = { sig: string; data: string; slot_id: number; slot_version: number };

/** Sign `data` into slot `slotId` at `slotVersion` with `privateKey`, as a StackerDB writer does. */
export function signedSlot(data: Buffer, privateKey: string, slotId = 0, slotVersion = 1): Slot {
  const ids = Buffer.alloc(8);
  ids.writeUInt32BE(slotId, 0);
  ids.writeUInt32BE(slotVersion, 4);
  const sha = (...parts: Buffer[]) => parts.reduce((h, p) => h.update(p), createHash('sha512-256')).digest();
  const digest = sha(ids, sha(data));
  return {
    sig: signWithKey(privateKey, digest.toString('hex')),
    data: data.toString('hex'),
    slot_id: slotId,
    slot_version: slotVersion,
  };
}

/** A `/stackerdb_chunks` body for a contract, as the node posts it. */
export function stackerDbPost(contract: string, slots: Slot[]): object {
  return { contract_id: { name: contract, issuer: [26, Array(20).fill(0)] }, modified_slots: slots };
}

/** The compressed public key of a private key, `0x` hex, as 1.x reported signers' keys. */
export function publicKeyOf(privateKey: string): string {
  const key = privateKeyToPublic(privateKey);
  return `0x${typeof key === 'string' ? key : Buffer.from(key).toString('hex')}`;
}
