import type { BlockIdentifier, ExecutionCost } from '../chain/block.js';
import type { ClarityJson } from '../stacks-codec/clarity-json.js';
import type { StacksScope } from './predicate.js';
import type { V1Operation } from './v1-operations.js';

/** The body 1.x posted for one chain update (`@hirosystems/chainhook-client`'s `StacksPayloadSchema`). */
export type ChainhookV1Payload = {
  apply: V1Block[];
  rollback: V1Block[];
  chainhook: { uuid: string; predicate: StacksScope; is_streaming_blocks: boolean };
  /** Signer messages (`signer_message`); none for block scopes. */
  events: unknown[];
};

/** A block as 1.x posted it (`StacksEventSchema`). */
export type V1Block = {
  block_identifier: BlockIdentifier;
  parent_block_identifier: BlockIdentifier;
  /** The Bitcoin block's time, as 1.x gave it; the Stacks block's own time is `metadata.block_time`. */
  timestamp: number;
  transactions: V1Transaction[];
  metadata: V1BlockMetadata;
};

/** Block metadata as 1.x posted it. */
export type V1BlockMetadata = {
  bitcoin_anchor_block_identifier: BlockIdentifier;
  confirm_microblock_identifier: BlockIdentifier | null;
  pox_cycle_index: number;
  pox_cycle_length: number;
  pox_cycle_position: number;
  stacks_block_hash: string;
  block_time: number | null;
  tenure_height: number | null;
  cycle_number: number | null;
  reward_set: null;
  signer_bitvec: string | null;
  signer_signature: string[] | null;
  signer_public_keys: string[] | null;
};

/** A transaction as 1.x posted it (`StacksTransactionSchema`). */
export type V1Transaction = {
  transaction_identifier: { hash: string };
  operations: V1Operation[];
  metadata: {
    description: string;
    execution_cost: ExecutionCost;
    fee: number;
    kind: V1TransactionKind;
    nonce: number;
    position: { index: number };
    proof: null;
    raw_tx: string;
    receipt: {
      contract_calls_stack: string[];
      events: V1Event[];
      mutated_assets_radius: string[];
      mutated_contracts_radius: string[];
    };
    result: string;
    sender: string;
    sponsor?: string;
    success: boolean;
    contract_abi?: unknown;
  };
};

/** `metadata.kind`: what the transaction is, in 1.x's names. */
export type V1TransactionKind =
  | { type: 'NativeTokenTransfer' | 'Coinbase' | 'TenureChange' | 'Unsupported' }
  | { type: 'ContractCall'; data: { args: string[]; contract_identifier: string; method: string } }
  | { type: 'ContractDeployment'; data: { contract_identifier: string; code: string } };

/**
 * One receipt event, typed by 1.x's names (`STXTransferEvent`, `SmartContractEvent`, …); its fields
 * are strings but for the decoded `value` that `decode_clarity_values` adds.
 */
export type V1Event = { type: string; position: { index: number }; data: Record<string, ClarityJson> };
