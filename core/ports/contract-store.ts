import type { ContractAbi } from '../chain/contract-abi.js';
import type { DeployedContract } from '../stacks-codec/normalize-block.js';

/** The contracts deployed so far, so that later calls can name and type their arguments. */
export interface ContractStore {
  /** The ABIs of those of `ids` that are known (a contract with no ABI is absent). */
  getAbis(ids: string[]): Promise<Map<string, ContractAbi>>;
  /** Keep deployed contracts (idempotent: the same contract again replaces nothing of meaning). */
  putContracts(contracts: DeployedContract[]): Promise<void>;
}

export const CONTRACT_STORE = Symbol.for('stackhooks.ContractStore');
