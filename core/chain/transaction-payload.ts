import type { ContractAbi } from './contract-abi.js';

/** The transaction kinds a payload names. */
export type TransactionType =
  'token_transfer' | 'contract_call' | 'contract_deploy' | 'coinbase' | 'tenure_change' | 'poison_microblock';

/** How a transaction ended (the node's status). */
export type TransactionStatus = 'success' | 'abort_by_response' | 'abort_by_post_condition';

/** A contract-call argument, named and typed from the ABI when known (else name "" and the inferred type). */
export type ContractCallArg = { hex: string; repr: string; name: string; type: string };

/** The decoded payload of a transaction, by kind. */
export type TransactionPayload =
  | {
      type: 'token_transfer';
      /** Principal, without the repr's `'`. */
      recipient: string;
      amount: string;
      /** Hex with `0x`; the raw 34 memo bytes. */
      memo: string;
    }
  | { type: 'contract_call'; contract_identifier: string; function_name: string; args: ContractCallArg[] }
  | {
      type: 'contract_deploy';
      contract_identifier: string;
      /** Null for an unversioned deploy (the node picks the epoch's default). */
      clarity_version: number | null;
      source_code: string;
      /** The node's ABI for a successful deploy, else null. */
      abi: ContractAbi | null;
    }
  | { type: 'coinbase'; alt_recipient: string | null; vrf_proof: string | null }
  | {
      type: 'tenure_change';
      tenure_consensus_hash: string;
      prev_tenure_consensus_hash: string;
      burn_view_consensus_hash: string;
      previous_tenure_end: string;
      previous_tenure_blocks: number;
      cause: TenureChangeCause;
      pubkey_hash: string;
    }
  | { type: 'poison_microblock'; microblock_header_1: string; microblock_header_2: string };

/** Why a tenure changed, in the payload's words. */
export type TenureChangeCause =
  | 'block_found'
  | 'extended'
  | 'extended_runtime'
  | 'extended_read_count'
  | 'extended_read_length'
  | 'extended_write_count'
  | 'extended_write_length';
