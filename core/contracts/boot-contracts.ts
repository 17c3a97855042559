import type { ContractAbi } from '../chain/contract-abi.js';
import { bootAddress, type ChainNetwork } from '../stacks-codec/network.js';
import shipped from './boot-contracts.json' with { type: 'json' };

/**
 * The ABIs of the boot contracts (`pox-4`, `bns`, `costs`, `signers`, ...): the node instantiates
 * them without a deploy transaction, so no block ever tells their ABIs. They ship with the package,
 * written by `npm run boot-contracts` from `@stacks/clarinet-sdk`'s simnet; mainnet and testnet
 * share them (only the boot address differs).
 */
const BOOT_ABIS: ReadonlyMap<string, ContractAbi> = new Map(
  Object.entries(shipped.contracts as unknown as Record<string, ContractAbi>),
);

/** The names of the boot contracts whose ABIs ship with the package. */
export const BOOT_CONTRACT_NAMES: readonly string[] = [...BOOT_ABIS.keys()];

/** The shipped ABI of a boot contract of `network` (by its full identifier), or undefined for any other contract. */
export function bootContractAbi(contractId: string, network: ChainNetwork): ContractAbi | undefined {
  const dot = contractId.indexOf('.');
  if (dot < 0 || contractId.slice(0, dot) !== bootAddress(network)) return undefined;
  return BOOT_ABIS.get(contractId.slice(dot + 1));
}
