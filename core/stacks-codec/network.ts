import { AddressHashMode, AddressVersion } from '@stacks/transactions';

/** The network a deployment serves; it fixes address versions and the boot address. */
export type ChainNetwork = 'mainnet' | 'testnet';

/** The address that owns the boot contracts (`pox-4`, `bns`, ...) on a network. */
export function bootAddress(network: ChainNetwork): string {
  return network === 'mainnet' ? 'SP000000000000000000002Q6VF78' : 'ST000000000000000000002AMW42H';
}

/**
 * The c32 address version of a spending condition's hash mode: only P2PKH is a single-sig (`SP`,
 * `ST`) address; every other mode, P2WPKH included, is a multi-sig one (`SM`, `SN`), as in
 * stacks-core.
 */
export function addressVersion(hashMode: AddressHashMode, network: ChainNetwork): AddressVersion {
  const singleSig = hashMode === AddressHashMode.P2PKH;
  if (network === 'mainnet')
    return singleSig ? AddressVersion.MainnetSingleSig : AddressVersion.MainnetMultiSig;
  return singleSig ? AddressVersion.TestnetSingleSig : AddressVersion.TestnetMultiSig;
}

/** The version byte a transaction starts with on each network. */
const TRANSACTION_VERSION: Record<number, ChainNetwork> = { 0x00: 'mainnet', 0x80: 'testnet' };

/**
 * The network a raw transaction was made for, read from its version byte, which also fixes the
 * version of every address it names (`SP`/`SM` on mainnet, `ST`/`SN` on testnet); undefined for a
 * Bitcoin-originated operation (`0x00`) or bytes that are no transaction.
 */
export function transactionNetwork(rawTx: unknown): ChainNetwork | undefined {
  if (typeof rawTx !== 'string' || !/^0x[0-9a-fA-F]{4,}$/.test(rawTx)) return undefined;
  return TRANSACTION_VERSION[parseInt(rawTx.slice(2, 4), 16)];
}
