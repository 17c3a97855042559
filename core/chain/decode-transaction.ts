import {
  AuthType,
  ClarityType,
  PayloadType,
  TenureChangeCause,
  deserializeTransaction,
  getFee,
  serializeCV,
  type ClarityValue,
  type PayloadWire,
  type SpendingCondition,
} from '@stacks/transactions';
import type { ContractCallArg, TenureChangeCause as CauseName, TransactionPayload } from './block.js';
import { c32Address, createReprCache, type ClarityValueRepr, type ReprCache } from './clarity-repr.js';
import { clarityValueRepr } from './clarity-text.js';
import { functionArgTypes, type AbiLookup } from './contract-abi.js';
import { addressVersion, type ChainNetwork } from './network.js';
import { decodePostConditions, type PostConditions } from './post-condition.js';

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
const MEMO_HEX = 34 * 2;

/**
 * Decodes a node's `raw_tx` (not `0x00`) with `@stacks/transactions`. Addresses use the
 * deployment's network; contract-call arguments are named from the ABI when `lookupAbi` knows
 * the contract. Throws on bytes that are not a transaction.
 */
export function decodeTransaction(rawTx: string, options: DecodeOptions): DecodedTransaction {
  const cache = options.cache ?? createReprCache();
  const hex = (rawTx.startsWith('0x') ? rawTx.slice(2) : rawTx).toLowerCase();
  // Node's native hex parser, handed over as a plain Uint8Array view, beats the library's own.
  const buffer = Buffer.from(hex, 'hex');
  if (buffer.length * 2 !== hex.length) throw new Error(`raw_tx is not hex: ${rawTx.slice(0, 40)}`);
  const tx = deserializeTransaction(new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length));
  const origin = tx.auth.spendingCondition;
  const sponsored = tx.auth.authType === AuthType.Sponsored;
  const sender = signerAddress(origin, options.network, cache);
  return {
    sender_address: sender,
    sponsor_address:
      tx.auth.authType === AuthType.Sponsored
        ? signerAddress(tx.auth.sponsorSpendingCondition, options.network, cache)
        : null,
    sponsored,
    fee: getFee(tx.auth).toString(),
    nonce: Number(origin.nonce),
    post_conditions: decodePostConditions(tx.postConditionMode, tx.postConditions.values, cache),
    payload: decodePayload(tx.payload, hex, sender, cache, options.lookupAbi),
  };
}

function signerAddress(condition: SpendingCondition, network: ChainNetwork, cache: ReprCache): string {
  return c32Address(addressVersion(condition.hashMode, network), condition.signer, cache);
}

function decodePayload(
  payload: PayloadWire,
  hex: string,
  sender: string,
  cache: ReprCache,
  lookupAbi: AbiLookup | undefined,
): TransactionPayload {
  switch (payload.payloadType) {
    case PayloadType.TokenTransfer:
      return {
        type: 'token_transfer',
        recipient: payload.recipient.value,
        amount: payload.amount.toString(),
        // The library trims and text-decodes the memo; the payload wants its bytes, the tx's last 34.
        memo: `0x${hex.slice(hex.length - MEMO_HEX)}`,
      };
    case PayloadType.ContractCall: {
      const address = c32Address(payload.contractAddress.version, payload.contractAddress.hash160, cache);
      const contractId = `${address}.${payload.contractName.content}`;
      const functionName = payload.functionName.content;
      const values = decodeArgs(hex, payload.functionArgs);
      const abi = lookupAbi?.(contractId);
      const typed = abi ? functionArgTypes(abi, functionName, values.length) : undefined;
      const args: ContractCallArg[] = values.map((v, i) => ({
        hex: v.hex,
        repr: v.repr,
        name: typed ? typed[i].name : '',
        type: typed ? typed[i].type : v.type,
      }));
      return { type: 'contract_call', contract_identifier: contractId, function_name: functionName, args };
    }
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

/**
 * The arguments with their exact bytes. They end the transaction, so their sizes (computed from
 * the decoded values) cut them out without re-serializing, which costs more than the whole
 * decode; the count that precedes them confirms the cut (if it does not, re-serialize). Reprs
 * come from the decoded values, whose principals the library has already c32-encoded.
 */
function decodeArgs(hex: string, args: ClarityValue[]): ClarityValueRepr[] {
  if (args.length === 0) return [];
  const sizes = args.map(serializedSize);
  let start = hex.length - 2 * sizes.reduce((a, b) => a + b, 0);
  const counted = start >= 8 && Number.parseInt(hex.slice(start - 8, start), 16) === args.length;
  return args.map((arg, i) => {
    let argHex: string;
    if (counted) {
      argHex = `0x${hex.slice(start, start + 2 * sizes[i])}`;
      start += 2 * sizes[i];
    } else {
      argHex = `0x${serializeCV(arg)}`;
    }
    return { hex: argHex, ...clarityValueRepr(arg) };
  });
}

function serializedSize(cv: ClarityValue): number {
  switch (cv.type) {
    case ClarityType.Int:
    case ClarityType.UInt:
      return 17;
    case ClarityType.Buffer:
      return 5 + cv.value.length / 2;
    case ClarityType.BoolTrue:
    case ClarityType.BoolFalse:
    case ClarityType.OptionalNone:
      return 1;
    case ClarityType.PrincipalStandard:
      return 22;
    case ClarityType.PrincipalContract:
      return 23 + (cv.value.length - cv.value.indexOf('.') - 1);
    case ClarityType.ResponseOk:
    case ClarityType.ResponseErr:
    case ClarityType.OptionalSome:
      return 1 + serializedSize(cv.value);
    case ClarityType.List:
      return cv.value.reduce((n: number, item: ClarityValue) => n + serializedSize(item), 5);
    case ClarityType.Tuple:
      return Object.entries(cv.value).reduce(
        (n, [key, item]) => n + 1 + key.length + serializedSize(item),
        5,
      );
    case ClarityType.StringASCII:
      return 5 + cv.value.length;
    case ClarityType.StringUTF8:
      return 5 + Buffer.byteLength(cv.value, 'utf8');
  }
}
