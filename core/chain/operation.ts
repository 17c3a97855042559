import type { ClarityValueRepr } from './clarity-value.js';
import type { ContractCallArg, TenureChangeCause, TransactionStatus } from './transaction-payload.js';

/**
 * One operation of a transaction, in the shape of the client's `StacksOperationSchema`, with the
 * option-dependent parts in full: contract-call `args` decoded (shaping concatenates their hex
 * when `decode_clarity_values` is off), `contract_log.value` decoded (shaping keeps `hex` or
 * `{hex, repr}`), and deploys carrying `abi` and `source_code` (shaping drops them unless asked).
 */
export type NormalizedOperation =
  | FeeOperation
  | ContractCallOperation
  | ContractDeployOperation
  | CoinbaseOperation
  | TenureChangeOperation
  | PoisonMicroblockOperation
  | TokenTransferOperation
  | TokenMintOperation
  | TokenBurnOperation
  | StxLockOperation
  | ContractLogOperation;

type OperationBase = { operation_identifier: { index: number }; status: TransactionStatus };
type Account = { address: string };

/** An amount moved by an operation; `value` is a decimal string, negative for a debit. */
export type OperationAmount = { value: string; currency: Currency };

/** STX, an FT or an NFT, as Hiro's payloads describe them. */
export type Currency = {
  symbol: string;
  decimals: number;
  metadata?:
    | { asset_identifier: string; token_type: 'ft' }
    | { asset_identifier: string; value: string; token_type: 'nft' };
};

/** The transaction fee; the payer is the sponsor when sponsored. */
export type FeeOperation = OperationBase & {
  type: 'fee';
  account: Account;
  amount: OperationAmount;
  metadata: { sponsored: boolean };
};

/** The call a contract-call transaction makes. */
export type ContractCallOperation = OperationBase & {
  type: 'contract_call';
  account: Account;
  metadata: { contract_identifier: string; function_name: string; args: ContractCallArg[] };
};

/** The deploy a smart-contract transaction makes; `abi` is the ABI's JSON text (null when the node gave none). */
export type ContractDeployOperation = OperationBase & {
  type: 'contract_deploy';
  account: Account;
  metadata: {
    contract_identifier: string;
    clarity_version: number | null;
    source_code: string;
    abi: string | null;
  };
};

/** A coinbase, of any variant. */
export type CoinbaseOperation = OperationBase & {
  type: 'coinbase';
  account: Account;
  metadata: { alt_recipient: string | null; vrf_proof: string | null };
};

/** A Nakamoto tenure change. */
export type TenureChangeOperation = OperationBase & {
  type: 'tenure_change';
  metadata: {
    tenure_consensus_hash: string;
    prev_tenure_consensus_hash: string;
    burn_view_consensus_hash: string;
    previous_tenure_end: string;
    previous_tenure_blocks: number;
    cause: TenureChangeCause;
    pubkey_hash: string;
  };
};

/** A poison-microblock report, with both conflicting headers (hex). */
export type PoisonMicroblockOperation = OperationBase & {
  type: 'poison_microblock';
  account: Account;
  metadata: { microblock_header_1: string; microblock_header_2: string };
};

/** One side of a transfer (debit or credit); STX transfers carry their memo. */
export type TokenTransferOperation = OperationBase & {
  type: 'token_transfer';
  account: Account;
  amount: OperationAmount;
  metadata?: { memo: string | null };
};

/** A mint: a credit. */
export type TokenMintOperation = OperationBase & {
  type: 'token_mint';
  account: Account;
  amount: OperationAmount;
};

/** A burn: a debit. */
export type TokenBurnOperation = OperationBase & {
  type: 'token_burn';
  account: Account;
  amount: OperationAmount;
};

/** STX locked for stacking; `contract_name` is the PoX contract's name (`pox-4`). */
export type StxLockOperation = OperationBase & {
  type: 'stx_lock';
  account: Account;
  amount: OperationAmount;
  metadata: { unlock_height: number; locked_address: string; contract_name: string };
};

/** A `print` by a contract. */
export type ContractLogOperation = OperationBase & {
  type: 'contract_log';
  metadata: { contract_identifier: string; topic: string; value: ClarityValueRepr };
};
