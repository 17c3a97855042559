/**
 * The body a Stacks node POSTs to an event observer's `/new_block` (stacks-node.md). Fields that
 * only some node versions send are optional: Nakamoto fields are absent before epoch 3, the cost
 * and pox fields before 2.1, `burnchain_op` on old nodes.
 */
export type NodeBlock = {
  block_hash: string;
  block_height: number;
  /** The unique id of a Stacks block; use it everywhere. */
  index_block_hash: string;
  parent_block_hash: string;
  parent_index_block_hash: string;
  burn_block_hash: string;
  burn_block_height: number;
  burn_block_time: number;
  parent_burn_block_hash?: string;
  parent_burn_block_height?: number;
  parent_burn_block_timestamp?: number;
  miner_txid?: string;
  /** All zeros when the block confirms no microblock. */
  parent_microblock?: string;
  parent_microblock_sequence?: number;
  matured_miner_rewards?: NodeMinerReward[];
  anchored_cost?: NodeExecutionCost;
  confirmed_microblocks_cost?: NodeExecutionCost;
  pox_v1_unlock_height?: number;
  pox_v2_unlock_height?: number;
  pox_v3_unlock_height?: number;
  /** Nakamoto: the block's own time (unix seconds). */
  block_time?: number | null;
  tenure_height?: number | null;
  consensus_hash?: string;
  cycle_number?: number | null;
  reward_set?: NodeRewardSet | null;
  /** Nakamoto: hex, without `0x`. */
  signer_bitvec?: string | null;
  signer_signature_hash?: string;
  /** Nakamoto: one recoverable signature (hex, without `0x`) per signer that signed. */
  signer_signature?: string[] | null;
  miner_signature?: string;
  transactions: NodeTransaction[];
  events: NodeEvent[];
};

/** Execution cost as the node reports it, per transaction and per block. */
export type NodeExecutionCost = {
  read_count: number;
  read_length: number;
  runtime: number;
  write_count: number;
  write_length: number;
};

/** A miner reward that matured in this block. */
export type NodeMinerReward = {
  recipient: string;
  miner_address?: string;
  coinbase_amount: string;
  tx_fees_anchored: string;
  tx_fees_streamed_confirmed: string;
  tx_fees_streamed_produced: string;
  from_index_consensus_hash?: string;
  from_stacks_block_hash?: string;
};

/** Nakamoto: the reward set computed at the start of a reward cycle. */
export type NodeRewardSet = {
  pox_ustx_threshold?: string;
  rewarded_addresses?: string[];
  signers?: { signing_key: string; weight: number; stacked_amt: string }[] | null;
};

/** How a transaction ended. */
export type NodeTransactionStatus = 'success' | 'abort_by_response' | 'abort_by_post_condition';

/** One transaction of a `/new_block` body. */
export type NodeTransaction = {
  txid: string;
  tx_index: number;
  /** Hex; `0x00` marks an operation that came from Bitcoin, described by `burnchain_op`. */
  raw_tx: string;
  status: NodeTransactionStatus;
  /** The Clarity result, hex. */
  raw_result: string;
  execution_cost?: NodeExecutionCost;
  /** The deployed contract's ABI (deploys only); some node versions call it `contract_interface`. */
  contract_abi?: unknown;
  contract_interface?: unknown;
  vm_error?: string | null;
  microblock_hash?: string | null;
  microblock_sequence?: number | null;
  microblock_parent_hash?: string | null;
  burnchain_op?: NodeBurnchainOp | null;
};

/** A Stacks address as the node prints it inside burnchain operations. */
export type NodeStacksAddress = { address: string; address_hash_bytes: string; address_version: number };

type BurnchainOpCommon = {
  burn_block_height: number;
  burn_header_hash: string;
  burn_txid: string;
  vtxindex: number;
};

/** A Bitcoin-originated operation the node executed as a Stacks transaction. */
export type NodeBurnchainOp =
  | {
      transfer_stx: BurnchainOpCommon & {
        sender: NodeStacksAddress;
        recipient: NodeStacksAddress;
        /** Sic: the node's spelling. */
        transfered_ustx: number | string;
        /** Hex with `0x`. */
        memo: string;
      };
    }
  | {
      stack_stx: BurnchainOpCommon & {
        sender: NodeStacksAddress;
        /** Base58 Bitcoin address. */
        reward_addr: string;
        stacked_ustx: number | string;
        num_cycles: number;
        signer_key?: string | null;
        max_amount?: number | string | null;
        auth_id?: number | null;
      };
    }
  | {
      delegate_stx: BurnchainOpCommon & {
        sender: NodeStacksAddress;
        delegate_to: NodeStacksAddress;
        delegated_ustx: number | string;
        reward_addr: [number, string] | null;
        until_burn_height: number | null;
      };
    }
  | {
      vote_for_aggregate_key: BurnchainOpCommon & {
        sender: NodeStacksAddress;
        aggregate_key: string;
        reward_cycle: number;
        round: number;
        signer_index: number;
        signer_key: string;
      };
    }
  | { pre_stx: BurnchainOpCommon & { output: NodeStacksAddress } };

type NodeEventBase = { txid: string; event_index: number; committed: boolean };

/** One event of a `/new_block` body; `committed: false` marks an event of an aborted transaction. */
export type NodeEvent =
  | (NodeEventBase & {
      type: 'stx_transfer_event';
      /** `memo` is hex without `0x` (sent by 2.1+ nodes). */
      stx_transfer_event: { sender: string; recipient: string; amount: string; memo?: string };
    })
  | (NodeEventBase & { type: 'stx_mint_event'; stx_mint_event: { recipient: string; amount: string } })
  | (NodeEventBase & { type: 'stx_burn_event'; stx_burn_event: { sender: string; amount: string } })
  | (NodeEventBase & {
      type: 'stx_lock_event';
      stx_lock_event: {
        locked_amount: string;
        unlock_height: string | number;
        locked_address: string;
        contract_identifier?: string;
      };
    })
  | (NodeEventBase & { type: 'ft_transfer_event'; ft_transfer_event: NodeFtEvent })
  | (NodeEventBase & { type: 'ft_mint_event'; ft_mint_event: NodeFtEvent })
  | (NodeEventBase & { type: 'ft_burn_event'; ft_burn_event: NodeFtEvent })
  | (NodeEventBase & { type: 'nft_transfer_event'; nft_transfer_event: NodeNftEvent })
  | (NodeEventBase & { type: 'nft_mint_event'; nft_mint_event: NodeNftEvent })
  | (NodeEventBase & { type: 'nft_burn_event'; nft_burn_event: NodeNftEvent })
  | (NodeEventBase & {
      type: 'contract_event';
      /** `raw_value` is the printed value's hex; the legacy `value` object is ignored. */
      contract_event: { contract_identifier: string; topic: string; raw_value: string };
    });

/** The inner object of an FT event. */
export type NodeFtEvent = { asset_identifier: string; amount: string; sender?: string; recipient?: string };

/** The inner object of an NFT event; `raw_value` is the hex of the token id. */
export type NodeNftEvent = {
  asset_identifier: string;
  raw_value: string;
  sender?: string;
  recipient?: string;
};
