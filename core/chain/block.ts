import type { ClarityValueRepr } from './clarity-value.js';
import type { NormalizedOperation } from './operation.js';
import type { PostConditions } from './post-condition.js';
import type { TransactionEvent } from './transaction-event.js';
import type { TransactionPayload, TransactionStatus, TransactionType } from './transaction-payload.js';

/**
 * The normalized block: a node block turned into the Block model of Hiro's payloads,
 * holding everything any payload option needs, so that shaping a payload for a hook's options is
 * a projection. Normalized blocks are shared by every hook: treat them as read-only.
 *
 * How the options map onto it:
 * - `decode_clarity_values`: off shows `metadata.result.hex`, `contract_log` `value.hex`, and a
 *   contract call's `args` as one `0x` string joining each `arg.hex` (null when none); on shows
 *   `{hex, repr}` and the args as they are (`{hex, repr, name, type}`).
 * - `include_contract_abi` / `include_contract_source_code`: keep the `contract_deploy`
 *   operation's `metadata.abi` (when not null) / `metadata.source_code`; otherwise drop them.
 * - `include_post_conditions` / `include_raw_transactions`: keep `metadata.post_conditions` /
 *   `metadata.raw_tx`; otherwise drop them.
 * - `include_block_metadata`: show `metadata` without `signatures`, adding `canonical`;
 *   `include_block_signatures` also keeps `metadata.signatures`.
 * Shaping always adds `canonical` and `microblock_canonical` to transaction metadata and drops
 * `payload` and `events`, which are here for matchers.
 */
export type NormalizedBlock = {
  block_identifier: { index: number; hash: string };
  parent_block_identifier: { index: number; hash: string };
  timestamp: number;
  transactions: NormalizedTransaction[];
  /** Everything `include_block_metadata` / `include_block_signatures` show, except `canonical`. */
  metadata: NormalizedBlockMetadata;
  /**
   * What the node sent that could not be decoded, each with why; absent when everything was read.
   * The block is archived and connected all the same, so the chain never breaks at it, and hooks see
   * the events of its readable transactions. Not a payload field.
   */
  unreadable_transactions?: UnreadableTransaction[];
};

/**
 * A transaction that could not be decoded, kept as the node sent it with the reason; or, with a null
 * txid, a block whose transaction list itself could not be read. `events` are the node's events of
 * that transaction (of the whole block for a null txid), as given.
 */
export type UnreadableTransaction = {
  txid: string | null;
  tx_index: number | null;
  raw_tx: string | null;
  reason: string;
  events: unknown[];
};

/** `{index, hash}` of a Stacks block, Bitcoin block or microblock. */
export type BlockIdentifier = { index: number; hash: string };

/** Execution cost of a transaction or a block. */
export type ExecutionCost = {
  read_count: number;
  read_length: number;
  runtime: number;
  write_count: number;
  write_length: number;
};

/**
 * Block metadata without `canonical`, which is a property of the chain at delivery time (the
 * archive tracks it), not of the block.
 */
export type NormalizedBlockMetadata = {
  burn_block_identifier: BlockIdentifier;
  burn_block_timestamp: number;
  /** Null when the block confirms no microblock. */
  parent_microblock_identifier: BlockIdentifier | null;
  /** The node's `tenure_height`; the block height before Nakamoto. */
  tenure_height: number;
  /** The node's `anchored_cost`, else the sum of the anchored transactions' costs. */
  execution_cost: ExecutionCost;
  /** Bytes of all raw transactions. */
  tx_total_size: number;
  /** Transactions in the whole block (a payload block lists only the matching ones). */
  tx_count: number;
  /** As the node sends them (hex without `0x`); both null before Nakamoto. */
  signatures: { signer_bitvec: string | null; signer_signatures: string[] | null };
};

/** One transaction: the payload Transaction, plus what matchers need that the payload lacks. */
export type NormalizedTransaction = {
  transaction_identifier: { hash: string };
  /** Numbered from 0 in the order of Hiro's payloads; committed events only. */
  operations: NormalizedOperation[];
  metadata: NormalizedTransactionMetadata;
  /** The decoded payload (kind and target), for matchers; not a payload field. */
  payload: TransactionPayload;
  /** Every event of the transaction in node order; see TransactionEvent for `committed`. Not a payload field. */
  events: TransactionEvent[];
};

/**
 * Transaction metadata without `canonical` and `microblock_canonical` (chain state at delivery),
 * and with the option-gated fields always present: shaping drops `raw_tx` and `post_conditions`
 * unless asked, and shows `result` as `result.hex` unless `decode_clarity_values`.
 */
export type NormalizedTransactionMetadata = {
  type: TransactionType;
  status: TransactionStatus;
  result: ClarityValueRepr;
  sender_address: string;
  /** The sponsor, when sponsored. */
  sponsor_address: string | null;
  sponsored: boolean;
  /** The fee paid, in µSTX (the sponsor's when sponsored); "0" for Bitcoin-originated operations. */
  fee_rate: string;
  /** The origin's nonce; 0 for Bitcoin-originated operations. */
  nonce: number;
  position: { index: number; microblock_identifier: BlockIdentifier | null };
  execution_cost: ExecutionCost;
  vm_error: string | null;
  raw_tx: string;
  post_conditions: PostConditions;
};
