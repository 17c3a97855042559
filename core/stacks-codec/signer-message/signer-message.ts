import { readMockProposal, readMockSignature, readSignerMetadata } from './mock-messages.js';
import type { MockSignatureJson, PeerInfoJson } from './mock-messages.js';
import { readNakamotoBlock, type NakamotoBlockJson } from './nakamoto-block.js';
import { SignerWireError, WireReader } from './wire-reader.js';

/** Why a block was rejected, as 1.x's client schema names it. */
export type RejectCodeJson = { VALIDATION_FAILED: string } | string;

/** A block response's metadata: the signer's version. */
export type SignerMetadataJson = { server_version: string };

/** A signer's verdict on a proposed block. */
export type BlockResponseJson =
  | {
      type: 'Accepted';
      data: { signer_signature_hash: string; signature: string; metadata: SignerMetadataJson };
    }
  | {
      type: 'Rejected';
      data: {
        reason: string;
        reason_code: RejectCodeJson;
        signer_signature_hash: string;
        chain_id: number;
        signature: string;
        metadata: SignerMetadataJson;
      };
    };

/** One StackerDB message, in 1.x's JSON (`StacksSignerMessage`, tagged `type` and `data`). */
export type SignerMessageJson =
  | { type: 'BlockProposal'; data: { block: NakamotoBlockJson; burn_height: number; reward_cycle: number } }
  | { type: 'BlockResponse'; data: BlockResponseJson }
  | { type: 'BlockPushed'; data: { block: NakamotoBlockJson } }
  | { type: 'MockSignature'; data: MockSignatureJson }
  | { type: 'MockProposal'; data: PeerInfoJson }
  | {
      type: 'MockBlock';
      data: { mock_proposal: { peer_info: PeerInfoJson }; mock_signatures: MockSignatureJson[] };
    };

/**
 * Message kinds stacks-core sends that 1.x never delivered (it could not read them); they are
 * skipped as such, not as corrupt chunks.
 */
export class UndeliveredKind extends Error {}

// stacks-core's type prefixes of signer messages, in order.
const KINDS = [
  'BlockProposal',
  'BlockResponse',
  'BlockPushed',
  'MockProposal',
  'MockSignature',
  'MockBlock',
  'StateMachineUpdate',
  'BlockPreCommit',
] as const;

// stacks-core's reject codes (the prefix byte) and block validation codes, by number.
const REJECT_CODES = [
  'VALIDATION_FAILED',
  'CONNECTIVITY_ISSUES',
  'REJECTED_IN_PRIOR_ROUND',
  'NO_SORTITION_VIEW',
  'SORTITION_VIEW_MISMATCH',
  'TESTING_DIRECTIVE',
];
const VALIDATION_CODES = [
  'BAD_BLOCK_HASH',
  'BAD_TRANSACTION',
  'INVALID_BLOCK',
  'CHAINSTATE_ERROR',
  'UNKNOWN_PARENT',
  'NON_CANONICAL_TENURE',
  'NO_SUCH_TENURE',
  'INVALID_TRANSACTION_REPLAY',
  'INVALID_PARENT_BLOCK',
  'INVALID_TIMESTAMP',
  'NETWORK_CHAIN_MISMATCH',
  'NOT_FOUND_ERROR',
  'PROBLEMATIC_TRANSACTION',
];

/**
 * Decode a StackerDB chunk's data as stacks-core's signer message and shape it as 1.x did. Fields
 * stacks-core added after 1.x (versioned response and proposal data) are read past, not shown.
 * Throws `SignerWireError` for bytes that are not a message, `UndeliveredKind` for kinds 1.x never sent.
 */
export function decodeSignerMessage(data: Uint8Array): SignerMessageJson {
  const reader = new WireReader(data);
  const prefix = reader.u8();
  const kind = KINDS[prefix];
  switch (kind) {
    case 'BlockProposal': {
      const block = readNakamotoBlock(reader);
      return { type: kind, data: { block, burn_height: reader.u64(), reward_cycle: reader.u64() } };
    }
    case 'BlockResponse':
      return { type: kind, data: readBlockResponse(reader) };
    case 'BlockPushed':
      return { type: kind, data: { block: readNakamotoBlock(reader) } };
    case 'MockProposal':
      return { type: kind, data: readMockProposal(reader).peer_info };
    case 'MockSignature':
      return { type: kind, data: readMockSignature(reader) };
    case 'MockBlock': {
      const { peer_info } = readMockProposal(reader);
      const mock_signatures = reader.list(() => readMockSignature(reader));
      return { type: kind, data: { mock_proposal: { peer_info }, mock_signatures } };
    }
    case 'StateMachineUpdate':
    case 'BlockPreCommit':
      throw new UndeliveredKind(`a ${kind} message, which 1.x did not deliver`);
    case undefined:
      throw new SignerWireError(`unknown signer message type ${prefix}`);
  }
}

function readBlockResponse(reader: WireReader): BlockResponseJson {
  const verdict = reader.u8();
  if (verdict === 0) {
    const signer_signature_hash = reader.hex(32);
    const signature = reader.hex(65);
    return {
      type: 'Accepted',
      data: { signer_signature_hash, signature, metadata: readSignerMetadata(reader) },
    };
  }
  if (verdict !== 1) throw new SignerWireError(`unknown block response type ${verdict}`);
  const reason = reader.prefixedText();
  const reason_code = readRejectCode(reader);
  const signer_signature_hash = reader.hex(32);
  const chain_id = reader.u32();
  const signature = reader.hex(65);
  const metadata = readSignerMetadata(reader);
  return {
    type: 'Rejected',
    data: { reason, reason_code, signer_signature_hash, chain_id, signature, metadata },
  };
}

function readRejectCode(reader: WireReader): RejectCodeJson {
  const prefix = reader.u8();
  const code = REJECT_CODES[prefix];
  if (code === undefined) throw new SignerWireError(`unknown reject code ${prefix}`);
  if (prefix !== 0) return code;
  const validation = reader.u8();
  const name = VALIDATION_CODES[validation];
  if (name === undefined) throw new SignerWireError(`unknown block validation code ${validation}`);
  return { VALIDATION_FAILED: name };
}
