import {
  AnchorMode,
  AuthType,
  BytesReader,
  ClarityType,
  PayloadType,
  PostConditionMode,
  StacksWireType,
  TenureChangeCause,
  deserializeAuthorization,
  deserializeLPList,
  deserializePayload,
  getFee,
  type ClarityValue,
  type PayloadWire,
  type PostConditionWire,
  type SpendingCondition,
} from '@stacks/transactions';
import type { TenureChangeCause as CauseName, TransactionPayload } from '../chain/transaction-payload.js';
import { c32Address, createReprCache, type ReprCache } from './clarity-repr.js';
import type { AbiLookup } from '../chain/contract-abi.js';
import { addressVersion, type ChainNetwork } from './network.js';
import { decodePostConditions } from './decode-post-conditions.js';
import { type PostConditions } from '../chain/post-condition.js';
import { readContractCall, readTokenTransfer } from './wire-payload.js';

/** What a raw transaction says about itself: who sent it, what it pays, what it does. */
export type DecodedTransaction = {
  sender_address: string;
  sponsor_address: string | null;
  sponsored: boolean;
  /** µSTX, decimal; the sponsor's fee when sponsored. */
  fee: string;
  nonce: number;
  post_conditions: PostConditions;
  payload: TransactionPayload;
};

/** The deployment's network, a per-block memo table and the ABIs known so far. */
export type DecodeOptions = { network: ChainNetwork; cache?: ReprCache; lookupAbi?: AbiLookup };

const CAUSES: Record<TenureChangeCause, CauseName> = {
  [TenureChangeCause.BlockFound]: 'block_found',
  [TenureChangeCause.Extended]: 'extended',
  [TenureChangeCause.ExtendedRuntime]: 'extended_runtime',
  [TenureChangeCause.ExtendedReadCount]: 'extended_read_count',
  [TenureChangeCause.ExtendedReadLength]: 'extended_read_length',
  [TenureChangeCause.ExtendedWriteCount]: 'extended_write_count',
  [TenureChangeCause.ExtendedWriteLength]: 'extended_write_length',
};

// A poison-microblock payload ends with two microblock headers: version (1), sequence (2),
// parent hash (32), merkle root (32), signature (65). The library skips them, so they are read here.
const MICROBLOCK_HEADER_HEX = 132 * 2;
/** The transaction versions of mainnet and testnet. */
const TRANSACTION_VERSIONS = new Set([0x00, 0x80]);

/**
 * Decodes a node's `raw_tx` (not `0x00`): authorization, post-conditions and the rarer payloads
 * with `@stacks/transactions`, contract calls and STX transfers from the bytes. Addresses use the
 * deployment's network; contract-call arguments are named from the ABI when `lookupAbi` knows
 * the contract. Throws on bytes that are not a transaction.
 */
export function decodeTransaction(rawTx: string, options: DecodeOptions): DecodedTransaction {
  const cache = options.cache ?? createReprCache();
  const hex = (rawTx.startsWith('0x') ? rawTx.slice(2) : rawTx).toLowerCase();
  // Node's native hex parser, handed over as a plain Uint8Array view, beats the library's own.
  const buffer = Buffer.from(hex, 'hex');
  if (buffer.length * 2 !== hex.length) throw new Error(`raw_tx is not hex: ${rawTx.slice(0, 40)}`);
  const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);
  // The library's deserializeTransaction, step by step, so that the commonest payloads can be read
  // from the bytes instead (see wire-payload.ts); version, chain id and anchor mode go unused.
  const reader = new BytesReader(bytes);
  const version = reader.readUInt8();
  if (!TRANSACTION_VERSIONS.has(version)) throw new Error(`Could not parse ${version} as TransactionVersion`);
  reader.readUInt32BE();
  const auth = deserializeAuthorization(reader);
  reader.readUInt8Enum(AnchorMode, (n) => {
    throw new Error(`Could not parse ${n} as AnchorMode`);
  });
  const postConditionMode = reader.readUInt8Enum(PostConditionMode, (n) => {
    throw new Error(`Could not parse ${n} as PostConditionMode`);
  });
  const postConditions = deserializeLPList(reader, StacksWireType.PostCondition)
    .values as PostConditionWire[];
  const origin = auth.spendingCondition;
  const sponsored = auth.authType === AuthType.Sponsored;
  const sender = signerAddress(origin, options.network, cache);
  const at = reader.readOffset;
  const wire = { hex, bytes: buffer, cache };
  let payload: TransactionPayload;
  if (buffer[at] === PayloadType.ContractCall) payload = readContractCall(wire, at, options.lookupAbi);
  else if (buffer[at] === PayloadType.TokenTransfer) payload = readTokenTransfer(wire, at);
  else payload = decodePayload(deserializePayload(reader), hex, sender);
  return {
    sender_address: sender,
    sponsor_address:
      auth.authType === AuthType.Sponsored
        ? signerAddress(auth.sponsorSpendingCondition, options.network, cache)
        : null,
    sponsored,
    fee: getFee(auth).toString(),
    nonce: Number(origin.nonce),
    post_conditions: decodePostConditions(postConditionMode, postConditions, cache),
    payload,
  };
}

function signerAddress(condition: SpendingCondition, network: ChainNetwork, cache: ReprCache): string {
  return c32Address(addressVersion(condition.hashMode, network), condition.signer, cache);
}

/** The payloads the library decodes (every kind but the two read in wire-payload.ts). */
function decodePayload(payload: PayloadWire, hex: string, sender: string): TransactionPayload {
  switch (payload.payloadType) {
    case PayloadType.TokenTransfer:
    case PayloadType.ContractCall:
      throw new Error('STX transfers and contract calls are read from the bytes');
    case PayloadType.SmartContract:
    case PayloadType.VersionedSmartContract:
      return {
        type: 'contract_deploy',
        contract_identifier: `${sender}.${payload.contractName.content}`,
        clarity_version:
          payload.payloadType === PayloadType.VersionedSmartContract ? payload.clarityVersion : null,
        source_code: payload.codeBody.content,
        abi: null,
      };
    case PayloadType.Coinbase:
      return { type: 'coinbase', alt_recipient: null, vrf_proof: null };
    case PayloadType.CoinbaseToAltRecipient:
      return { type: 'coinbase', alt_recipient: principalOf(payload.recipient), vrf_proof: null };
    case PayloadType.NakamotoCoinbase:
      return {
        type: 'coinbase',
        alt_recipient: payload.recipient ? principalOf(payload.recipient) : null,
        vrf_proof: `0x${Buffer.from(payload.vrfProof).toString('hex')}`,
      };
    case PayloadType.TenureChange:
      return {
        type: 'tenure_change',
        tenure_consensus_hash: `0x${payload.tenureHash}`,
        prev_tenure_consensus_hash: `0x${payload.previousTenureHash}`,
        burn_view_consensus_hash: `0x${payload.burnViewHash}`,
        previous_tenure_end: `0x${payload.previousTenureEnd}`,
        previous_tenure_blocks: payload.previousTenureBlocks,
        cause: CAUSES[payload.cause],
        pubkey_hash: `0x${payload.publicKeyHash}`,
      };
    case PayloadType.PoisonMicroblock: {
      const headers = hex.slice(hex.length - 2 * MICROBLOCK_HEADER_HEX);
      return {
        type: 'poison_microblock',
        microblock_header_1: `0x${headers.slice(0, MICROBLOCK_HEADER_HEX)}`,
        microblock_header_2: `0x${headers.slice(MICROBLOCK_HEADER_HEX)}`,
      };
    }
  }
}

/**
 * A recipient principal as a plain string (no `'`). A Nakamoto coinbase's recipient is an
 * optional principal on the wire (the library types it as a principal): unwrap it, `none` is null.
 */
function principalOf(cv: ClarityValue): string | null {
  if (cv.type === ClarityType.OptionalNone) return null;
  if (cv.type === ClarityType.OptionalSome) return principalOf(cv.value);
  if (cv.type === ClarityType.PrincipalStandard || cv.type === ClarityType.PrincipalContract) return cv.value;
  throw new Error(`expected a principal, got a Clarity ${cv.type}`);
}
