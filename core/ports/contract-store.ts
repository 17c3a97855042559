import type { ContractAbi } from '../chain/contract-abi.js';
import type { DeployedContract } from '../stacks-codec/normalize-block.js';

/** An ABI learned without its deploy (from a node's RPC). */
export type LearnedAbi = { contract_identifier: string; abi: ContractAbi };

/** The contracts deployed so far, so that later calls can name and type their arguments. */
export interface ContractStore {
  /** The ABIs of those of `ids` that are known (a contract with no ABI is absent). */
  getAbis(ids: string[]): Promise<Map<string, ContractAbi>>;
  /** Keep deployed contracts (idempotent: the same contract again replaces nothing of meaning). */
  putContracts(contracts: DeployedContract[]): Promise<void>;
  /**
   * Keep ABIs learned without a deploy. A contract whose deploy is kept with its ABI keeps that
   * (what the chain's own node reported wins); a deploy kept later replaces a learned ABI.
   */
  putAbis(abis: LearnedAbi[]): Promise<void>;
}

export const CONTRACT_STORE = Symbol.for('stackhooks.ContractStore');
