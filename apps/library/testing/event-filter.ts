// Arbitrary filters of all 18 types, narrowed by values from HARNESS_POOL so that they often match.
import fc from 'fast-check';
import type { EventFilter, EventFilterType, NftValue } from '../../../core/hooks/definition.js';
import { HARNESS_POOL } from './pool.js';

/** Options of arbitraryEventFilter. */
export type EventFilterOptions = {
  /** Only these filter types; all 18 by default. */
  types?: readonly EventFilterType[];
};

const principal = fc.constantFrom(...HARNESS_POOL.accounts, ...HARNESS_POOL.contracts);
const ftAsset = fc.constantFrom(...HARNESS_POOL.ftAssets);
const nftAsset = fc.constantFrom(...HARNESS_POOL.nftAssets);
const contract = fc.constantFrom(...HARNESS_POOL.contracts);
/** What a pool account deploying a pool contract name creates: the pool's contracts and a few more. */
const deployedContract = fc
  .tuple(fc.constantFrom(...HARNESS_POOL.accounts), fc.constantFrom(...HARNESS_POOL.contractNames))
  .map(([address, name]) => `${address}.${name}`);

/**
 * An NFT filter `value` in each accepted form, for the pool's token ids: an integer (`1` for
 * `u1`), the Clarity repr (`u1`, `"name"`, `0x0102`), or the serialization as `0x` hex, in lower
 * or upper case.
 */
export function arbitraryNftFilterValue(): fc.Arbitrary<NftValue> {
  const ids = HARNESS_POOL.tokenIds;
  const integers = ids.filter((id) => id.type === 'uint').map((id) => Number(id.repr.slice(1)));
  return fc.oneof(
    fc.constantFrom(...integers),
    fc.constantFrom(...ids.map((id) => id.repr)),
    fc.constantFrom(...ids.map((id) => id.hex)),
    fc.constantFrom(...ids.map((id) => `0x${id.hex.slice(2).toUpperCase()}`)),
  );
}

const nftValue = arbitraryNftFilterValue();

/**
 * `{type}` plus each of `fields` present or left out, each with even odds, so that filters with no
 * narrowing field (which the index keeps in wildcard buckets) are common too.
 */
function narrowed<T extends EventFilterType>(type: T, fields: NarrowingFields<T>): fc.Arbitrary<FilterOf<T>> {
  const entries = Object.entries(fields as Record<string, fc.Arbitrary<unknown>>).map(([key, arbitrary]) =>
    fc.option(
      arbitrary.map((value) => [key, value] as const),
      { nil: undefined, freq: 2 },
    ),
  );
  return fc
    .tuple(...entries)
    .map(
      (present) =>
        ({ type, ...Object.fromEntries(present.filter((entry) => entry !== undefined)) }) as FilterOf<T>,
    );
}

type FilterOf<T extends EventFilterType> = Extract<EventFilter, { type: T }>;
/** An arbitrary for every optional field of the filter type: the compiler checks none is forgotten. */
type NarrowingFields<T extends EventFilterType> = {
  [K in Exclude<keyof FilterOf<T>, 'type'>]-?: fc.Arbitrary<NonNullable<FilterOf<T>[K]>>;
};

/** One arbitrary per type. */
const BY_TYPE: { [T in EventFilterType]: fc.Arbitrary<FilterOf<T>> } = {
  ft_transfer: narrowed('ft_transfer', { asset_identifier: ftAsset, sender: principal, receiver: principal }),
  ft_mint: narrowed('ft_mint', { asset_identifier: ftAsset, receiver: principal }),
  ft_burn: narrowed('ft_burn', { asset_identifier: ftAsset, sender: principal }),
  ft_event: narrowed('ft_event', { asset_identifier: ftAsset }),
  nft_transfer: narrowed('nft_transfer', {
    asset_identifier: nftAsset,
    value: nftValue,
    sender: principal,
    receiver: principal,
  }),
  nft_mint: narrowed('nft_mint', { asset_identifier: nftAsset, value: nftValue, receiver: principal }),
  nft_burn: narrowed('nft_burn', { asset_identifier: nftAsset, value: nftValue, sender: principal }),
  nft_event: narrowed('nft_event', { asset_identifier: nftAsset, value: nftValue }),
  stx_transfer: narrowed('stx_transfer', { sender: principal, receiver: principal }),
  stx_mint: narrowed('stx_mint', { receiver: principal }),
  stx_burn: narrowed('stx_burn', { sender: principal }),
  stx_event: fc.record({ type: fc.constant('stx_event') }),
  contract_deploy: narrowed('contract_deploy', { contract_identifier: deployedContract, sender: principal }),
  contract_call: narrowed('contract_call', {
    contract_identifier: contract,
    function_name: fc.constantFrom(...HARNESS_POOL.functionNames),
    sender: principal,
  }),
  contract_log: narrowed('contract_log', { contract_identifier: contract, sender: principal }),
  coinbase: fc.record({ type: fc.constant('coinbase') }),
  tenure_change: narrowed('tenure_change', { cause: fc.constantFrom('block_found', 'extended') }),
  balance_change: fc.record({ type: fc.constant('balance_change'), principal }),
};

/**
 * A filter of any of the 18 types (or of `options.types`), valid for the `definition` schema, with
 * each narrowing field present or absent at random and its value drawn from HARNESS_POOL; an
 * absent field is left out, never `undefined`.
 */
export function arbitraryEventFilter(options: EventFilterOptions = {}): fc.Arbitrary<EventFilter> {
  const types = options.types ?? (Object.keys(BY_TYPE) as EventFilterType[]);
  return fc.oneof(...types.map((type): fc.Arbitrary<EventFilter> => BY_TYPE[type]));
}
