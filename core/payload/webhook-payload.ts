import type { BlockIdentifier, ExecutionCost, NormalizedBlockMetadata } from '../chain/block.js';
import type { TransactionStatus, TransactionType } from '../chain/transaction-payload.js';
import type {
  ContractCallOperation,
  ContractDeployOperation,
  ContractLogOperation,
  NormalizedOperation,
} from '../chain/operation.js';
import type { PostConditions } from '../chain/post-condition.js';
import type { Network } from '../hooks/definition.js';

// The body of a webhook delivery, in the shape of the official
// client's `ChainhookEventSchema`. Payloads share parts with each other and with the normalized
// block they come from: treat them as read-only (they are serialized, never edited).

/** The JSON body POSTed to a hook's URL for one chain update. */
export type WebhookPayload = {
  chainhook: { uuid: string; name: string };
  event: {
    chain: 'stacks';
    network: Network;
    /** Blocks joining the canonical chain, oldest first. */
    apply: PayloadBlock[];
    /** Blocks leaving the canonical chain, newest first. */
    rollback: PayloadBlock[];
  };
};

/** A block with only the transactions the hook matched (the client's `StacksBlockSchema`). */
export type PayloadBlock = {
  block_identifier: BlockIdentifier;
  parent_block_identifier: BlockIdentifier;
  timestamp: number;
  transactions: PayloadTransaction[];
  /** Only with `include_block_metadata` or `include_block_signatures`. */
  metadata?: PayloadBlockMetadata;
};

/** The block metadata `include_block_metadata` shows; `tx_count` counts the whole block. */
export type PayloadBlockMetadata = Omit<NormalizedBlockMetadata, 'signatures'> & {
  /** False inside `rollback`. */
  canonical: boolean;
  /** Only with `include_block_signatures`; both fields null before Nakamoto. */
  signatures?: PayloadBlockSignatures;
};

/** The signer fields `include_block_signatures` shows. */
export type PayloadBlockSignatures = NormalizedBlockMetadata['signatures'];

/** One matched transaction with all of its operations (the client's `StacksTransactionSchema`). */
export type PayloadTransaction = {
  transaction_identifier: { hash: string };
  operations: PayloadOperation[];
  metadata: PayloadTransactionMetadata;
};

/** Transaction metadata; `raw_tx` and `post_conditions` only when their options ask for them. */
export type PayloadTransactionMetadata = {
  type: TransactionType;
  status: TransactionStatus;
  /** `0x` hex, or `{hex, repr}` with `decode_clarity_values`. */
  result: PayloadClarityValue;
  sender_address: string;
  sponsor_address: string | null;
  sponsored: boolean;
  fee_rate: string;
  nonce: number;
  position: { index: number; microblock_identifier: BlockIdentifier | null };
  execution_cost: ExecutionCost;
  vm_error: string | null;
  /** False inside `rollback`. */
  canonical: boolean;
  /** False inside `rollback`. */
  microblock_canonical: boolean;
  /** Only with `include_raw_transactions`. */
  raw_tx?: string;
  /** Only with `include_post_conditions`. */
  post_conditions?: PostConditions;
};

/** A Clarity value with `decode_clarity_values`: its serialization and canonical repr. */
export type DecodedClarityValue = { hex: string; repr: string };

/** A Clarity value as a payload shows it: `0x` hex, or decoded. */
export type PayloadClarityValue = string | DecodedClarityValue;

/** A contract call; `args` is one `0x` string (null without args), or decoded with `decode_clarity_values`. */
export type PayloadContractCallOperation = Omit<ContractCallOperation, 'metadata'> & {
  metadata: {
    contract_identifier: string;
    function_name: string;
    args: ContractCallOperation['metadata']['args'] | string | null;
  };
};

/** A deploy; `source_code` and `abi` (JSON text) only when their options ask for them. */
export type PayloadContractDeployOperation = Omit<ContractDeployOperation, 'metadata'> & {
  metadata: {
    contract_identifier: string;
    clarity_version: number | null;
    source_code?: string;
    abi?: string;
  };
};

/** A print; `value` is `0x` hex, or decoded with `decode_clarity_values`. */
export type PayloadContractLogOperation = Omit<ContractLogOperation, 'metadata'> & {
  metadata: { contract_identifier: string; topic: string; value: PayloadClarityValue };
};

/** One operation of a payload transaction (the client's `StacksOperationSchema`). */
export type PayloadOperation =
  | Exclude<NormalizedOperation, ContractCallOperation | ContractDeployOperation | ContractLogOperation>
  | PayloadContractCallOperation
  | PayloadContractDeployOperation
  | PayloadContractLogOperation;
