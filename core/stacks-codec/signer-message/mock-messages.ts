import { createHash } from 'node:crypto';
import { Cl, serializeCVBytes, type ClarityValue } from '@stacks/transactions';
import { recoverSignerKey } from './recover-signer-key.js';
import { SignerWireError, utf8, type WireReader } from './wire-reader.js';

/** A node's view in an Epoch 2.5 mock proposal, as 1.x wrote it (with the tip's index block hash). */
export type PeerInfoJson = {
  burn_block_height: number;
  stacks_tip_consensus_hash: string;
  stacks_tip: string;
  stacks_tip_height: number;
  pox_consensus: string;
  server_version: string;
  network_id: number;
  index_block_hash: string;
};

/** A signer's mock signature, with the key recovered from it (1.x's `MockSignature` data). */
export type MockSignatureJson = {
  mock_proposal: { peer_info: PeerInfoJson };
  metadata: { server_version: string };
  signature: string;
  pubkey: string;
};

/** A mock proposal: the peer info and the miner's signature over it (kept for the signers' hash). */
type MockProposal = { peer_info: PeerInfoJson; raw: RawPeerInfo; signature: Uint8Array };
type RawPeerInfo = { consensusHash: Uint8Array; tip: Uint8Array; poxConsensus: Uint8Array };

/** Read a mock proposal: peer info, then the miner's signature. */
export function readMockProposal(reader: WireReader): MockProposal {
  const burn_block_height = reader.u64();
  const consensusHash = reader.raw(20);
  const tip = reader.raw(32);
  const stacks_tip_height = reader.u64();
  const server_version = utf8(reader.raw(reader.u8()));
  const poxConsensus = reader.raw(20);
  const network_id = reader.u32();
  const signature = reader.raw(65);
  const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;
  return {
    peer_info: {
      burn_block_height,
      stacks_tip_consensus_hash: hex(consensusHash),
      stacks_tip: hex(tip),
      stacks_tip_height,
      pox_consensus: hex(poxConsensus),
      server_version,
      network_id,
      index_block_hash: `0x${sha512_256(tip, consensusHash).toString('hex')}`,
    },
    raw: { consensusHash, tip, poxConsensus },
    signature,
  };
}

/** Read a mock signature and recover the signer's key from it, as 1.x did. */
export function readMockSignature(reader: WireReader): MockSignatureJson {
  const signature = reader.raw(65);
  const proposal = readMockProposal(reader);
  const metadata = readSignerMetadata(reader);
  return {
    mock_proposal: { peer_info: proposal.peer_info },
    metadata,
    signature: `0x${Buffer.from(signature).toString('hex')}`,
    pubkey: recoverSignerKey(mockSignerHash(proposal), signature),
  };
}

/**
 * A signer message's metadata (the sender's version). Messages from before it was added end
 * without it; stacks-core reads those as an empty version, and so does this.
 */
export function readSignerMetadata(reader: WireReader): { server_version: string } {
  if (reader.remaining === 0) return { server_version: '' };
  return { server_version: reader.prefixedText() };
}

// SIP-018 structured data, as stacks-core hashes mock proposals: the miner signs its peer info
// under the "mock-miner" domain, the signers sign that hash and the miner's signature under "mock-signer".
function mockSignerHash(proposal: MockProposal): Uint8Array {
  const { peer_info: info, raw } = proposal;
  if (!/^[\x20-\x7e]*$/.test(info.server_version))
    throw new SignerWireError('a mock proposal server version is not printable ASCII');
  const minerHash = structuredDataHash(
    domain('mock-miner', info.network_id),
    Cl.tuple({
      'stacks-tip-consensus-hash': Cl.buffer(raw.consensusHash),
      'stacks-tip': Cl.buffer(raw.tip),
      'stacks-tip-height': Cl.uint(info.stacks_tip_height),
      'server-version': Cl.stringAscii(info.server_version),
      'pox-consensus': Cl.buffer(raw.poxConsensus),
    }),
  );
  return structuredDataHash(
    domain('mock-signer', info.network_id),
    Cl.tuple({
      'miner-signature-hash': Cl.buffer(minerHash),
      'miner-signature': Cl.buffer(proposal.signature),
    }),
  );
}

function domain(name: string, chainId: number): ClarityValue {
  return Cl.tuple({
    name: Cl.stringAscii(name),
    version: Cl.stringAscii('1.0.0'),
    'chain-id': Cl.uint(chainId),
  });
}

function structuredDataHash(domainValue: ClarityValue, data: ClarityValue): Uint8Array {
  const hash = (value: ClarityValue) => createHash('sha256').update(serializeCVBytes(value)).digest();
  return createHash('sha256').update('SIP018').update(hash(domainValue)).update(hash(data)).digest();
}

function sha512_256(...parts: Uint8Array[]): Buffer {
  const hash = createHash('sha512-256');
  for (const part of parts) hash.update(part);
  return hash.digest();
}
