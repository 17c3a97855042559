// Arbitraries for the identifiers filters name: principals, contracts, assets and NFT ids. Each
// draws from HARNESS_POOL most of the time and makes a fresh valid value otherwise.
import { Cl, addressFromVersionHash, addressToString } from '@stacks/transactions';
import fc from 'fast-check';
import type { ClarityValueRepr } from '../../../core/chain/clarity-value.js';
import { HARNESS_POOL, reprOf } from './pool.js';

/** `0x` and `bytes` random bytes as lower-case hex. */
export function arbitraryHex(bytes: number): fc.Arbitrary<string> {
  return fc
    .uint8Array({ minLength: bytes, maxLength: bytes })
    .map((b) => `0x${Buffer.from(b).toString('hex')}`);
}

/** A fresh mainnet address: single-sig (`SP`) or multi-sig (`SM`), from random hash bytes. */
const freshAddress = fc
  .tuple(fc.constantFrom(22, 20), arbitraryHex(20))
  .map(([version, hash]) => addressToString(addressFromVersionHash(version, hash.slice(2))));

const contractName = fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/);

/** Pool values four times in five, fresh ones otherwise. */
function mostlyPool<T>(pool: readonly T[], fresh: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...pool) }, { weight: 1, arbitrary: fresh });
}

/** A standard principal (`SP…`, `SM…`): what can send a transaction. */
export function arbitraryStandardPrincipal(): fc.Arbitrary<string> {
  return mostlyPool(HARNESS_POOL.accounts, freshAddress);
}

/** A contract principal (`<address>.<name>`). */
export function arbitraryContractIdentifier(): fc.Arbitrary<string> {
  return mostlyPool(
    HARNESS_POOL.contracts,
    fc.tuple(freshAddress, contractName).map(([a, n]) => `${a}.${n}`),
  );
}

/** A principal, standard or contract, as event senders and recipients and `balance_change` use them. */
export function arbitraryPrincipal(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: arbitraryStandardPrincipal() },
    { weight: 1, arbitrary: arbitraryContractIdentifier() },
  );
}

/** An asset identifier (`<address>.<contract>::<asset>`) of a fungible (default) or non-fungible token. */
export function arbitraryAssetIdentifier(kind: 'ft' | 'nft' = 'ft'): fc.Arbitrary<string> {
  return mostlyPool(
    kind === 'ft' ? HARNESS_POOL.ftAssets : HARNESS_POOL.nftAssets,
    fc.tuple(arbitraryContractIdentifier(), contractName).map(([c, n]) => `${c}::${n}`),
  );
}

/** An NFT token id with its hex and repr: a pool id, or a fresh `uint`. */
export function arbitraryNftId(): fc.Arbitrary<ClarityValueRepr> {
  return mostlyPool(
    HARNESS_POOL.tokenIds,
    fc.bigInt({ min: 0n, max: 2n ** 64n }).map((n) => reprOf(Cl.uint(n))),
  );
}

/** An amount as the node writes it: a positive decimal string. */
export function arbitraryAmount(): fc.Arbitrary<string> {
  return fc.bigInt({ min: 1n, max: 10n ** 15n }).map(String);
}
