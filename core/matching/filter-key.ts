import type { EventFilter } from '../hooks/definition.js';
import { assertNever } from './assert-never.js';
import { nftValueKey } from './nft-value.js';

/**
 * The places a filter can be indexed: `<filter type>.<field>` keyed by that field's value, or
 * `<filter type>.*` (key `''`) for a filter that gives no narrowing field.
 */
export const INDEX_SLOTS = [
  'ft_transfer.sender',
  'ft_transfer.receiver',
  'ft_transfer.asset_identifier',
  'ft_transfer.*',
  'ft_mint.receiver',
  'ft_mint.asset_identifier',
  'ft_mint.*',
  'ft_burn.sender',
  'ft_burn.asset_identifier',
  'ft_burn.*',
  'ft_event.asset_identifier',
  'ft_event.*',
  'nft_transfer.sender',
  'nft_transfer.receiver',
  'nft_transfer.asset_identifier',
  'nft_transfer.value',
  'nft_transfer.*',
  'nft_mint.receiver',
  'nft_mint.asset_identifier',
  'nft_mint.value',
  'nft_mint.*',
  'nft_burn.sender',
  'nft_burn.asset_identifier',
  'nft_burn.value',
  'nft_burn.*',
  'nft_event.asset_identifier',
  'nft_event.value',
  'nft_event.*',
  'stx_transfer.sender',
  'stx_transfer.receiver',
  'stx_transfer.*',
  'stx_mint.receiver',
  'stx_mint.*',
  'stx_burn.sender',
  'stx_burn.*',
  'stx_event.*',
  'contract_deploy.contract_identifier',
  'contract_deploy.sender',
  'contract_deploy.*',
  'contract_call.sender',
  'contract_call.contract_identifier',
  'contract_call.function_name',
  'contract_call.*',
  'contract_log.sender',
  'contract_log.contract_identifier',
  'contract_log.*',
  'coinbase.*',
  'tenure_change.cause',
  'tenure_change.*',
  'balance_change.principal',
] as const;

/** One of INDEX_SLOTS. */
export type IndexSlot = (typeof INDEX_SLOTS)[number];

/**
 * Where one filter is indexed: a slot and the key inside it, and whether the key says all the
 * filter asks (no other narrowing field, and a key compared exactly: not an NFT `value`, whose
 * keys are only the forms an id can take), so that reaching the key is a match.
 */
export type FilterKey = { slot: IndexSlot; key: string; exact: boolean };

const ANY = '';

/**
 * The one place a filter is indexed: its most selective narrowing field. Principals come first
 * (one account among millions; an asset or a contract is shared by every hook that watches it, so
 * "this token, to me" hooks would otherwise all be candidates for every transfer of the token),
 * then the asset or contract, then the function name or token id. A string key is the filter's
 * own field, so the index stores no new text for it.
 */
export function filterKey(filter: EventFilter): FilterKey {
  const { slot, key } = filedUnder(filter);
  let given = 0;
  for (const field in filter)
    if (field !== 'type' && filter[field as keyof EventFilter] !== undefined) given++;
  return { slot, key, exact: given <= 1 && !slot.endsWith('.value') };
}

function filedUnder(filter: EventFilter): { slot: IndexSlot; key: string } {
  switch (filter.type) {
    case 'ft_transfer':
      if (filter.sender !== undefined) return { slot: 'ft_transfer.sender', key: filter.sender };
      if (filter.receiver !== undefined) return { slot: 'ft_transfer.receiver', key: filter.receiver };
      if (filter.asset_identifier !== undefined)
        return { slot: 'ft_transfer.asset_identifier', key: filter.asset_identifier };
      return { slot: 'ft_transfer.*', key: ANY };
    case 'ft_mint':
      if (filter.receiver !== undefined) return { slot: 'ft_mint.receiver', key: filter.receiver };
      if (filter.asset_identifier !== undefined)
        return { slot: 'ft_mint.asset_identifier', key: filter.asset_identifier };
      return { slot: 'ft_mint.*', key: ANY };
    case 'ft_burn':
      if (filter.sender !== undefined) return { slot: 'ft_burn.sender', key: filter.sender };
      if (filter.asset_identifier !== undefined)
        return { slot: 'ft_burn.asset_identifier', key: filter.asset_identifier };
      return { slot: 'ft_burn.*', key: ANY };
    case 'ft_event':
      if (filter.asset_identifier !== undefined)
        return { slot: 'ft_event.asset_identifier', key: filter.asset_identifier };
      return { slot: 'ft_event.*', key: ANY };
    case 'nft_transfer':
      if (filter.sender !== undefined) return { slot: 'nft_transfer.sender', key: filter.sender };
      if (filter.receiver !== undefined) return { slot: 'nft_transfer.receiver', key: filter.receiver };
      if (filter.asset_identifier !== undefined)
        return { slot: 'nft_transfer.asset_identifier', key: filter.asset_identifier };
      if (filter.value !== undefined) return { slot: 'nft_transfer.value', key: nftValueKey(filter.value) };
      return { slot: 'nft_transfer.*', key: ANY };
    case 'nft_mint':
      if (filter.receiver !== undefined) return { slot: 'nft_mint.receiver', key: filter.receiver };
      if (filter.asset_identifier !== undefined)
        return { slot: 'nft_mint.asset_identifier', key: filter.asset_identifier };
      if (filter.value !== undefined) return { slot: 'nft_mint.value', key: nftValueKey(filter.value) };
      return { slot: 'nft_mint.*', key: ANY };
    case 'nft_burn':
      if (filter.sender !== undefined) return { slot: 'nft_burn.sender', key: filter.sender };
      if (filter.asset_identifier !== undefined)
        return { slot: 'nft_burn.asset_identifier', key: filter.asset_identifier };
      if (filter.value !== undefined) return { slot: 'nft_burn.value', key: nftValueKey(filter.value) };
      return { slot: 'nft_burn.*', key: ANY };
    case 'nft_event':
      if (filter.asset_identifier !== undefined)
        return { slot: 'nft_event.asset_identifier', key: filter.asset_identifier };
      if (filter.value !== undefined) return { slot: 'nft_event.value', key: nftValueKey(filter.value) };
      return { slot: 'nft_event.*', key: ANY };
    case 'stx_transfer':
      if (filter.sender !== undefined) return { slot: 'stx_transfer.sender', key: filter.sender };
      if (filter.receiver !== undefined) return { slot: 'stx_transfer.receiver', key: filter.receiver };
      return { slot: 'stx_transfer.*', key: ANY };
    case 'stx_mint':
      if (filter.receiver !== undefined) return { slot: 'stx_mint.receiver', key: filter.receiver };
      return { slot: 'stx_mint.*', key: ANY };
    case 'stx_burn':
      if (filter.sender !== undefined) return { slot: 'stx_burn.sender', key: filter.sender };
      return { slot: 'stx_burn.*', key: ANY };
    case 'stx_event':
      return { slot: 'stx_event.*', key: ANY };
    case 'contract_deploy':
      // A new contract is deployed once: its identifier beats the deployer.
      if (filter.contract_identifier !== undefined)
        return { slot: 'contract_deploy.contract_identifier', key: filter.contract_identifier };
      if (filter.sender !== undefined) return { slot: 'contract_deploy.sender', key: filter.sender };
      return { slot: 'contract_deploy.*', key: ANY };
    case 'contract_call':
      if (filter.sender !== undefined) return { slot: 'contract_call.sender', key: filter.sender };
      if (filter.contract_identifier !== undefined)
        return { slot: 'contract_call.contract_identifier', key: filter.contract_identifier };
      if (filter.function_name !== undefined)
        return { slot: 'contract_call.function_name', key: filter.function_name };
      return { slot: 'contract_call.*', key: ANY };
    case 'contract_log':
      if (filter.sender !== undefined) return { slot: 'contract_log.sender', key: filter.sender };
      if (filter.contract_identifier !== undefined)
        return { slot: 'contract_log.contract_identifier', key: filter.contract_identifier };
      return { slot: 'contract_log.*', key: ANY };
    case 'coinbase':
      return { slot: 'coinbase.*', key: ANY };
    case 'tenure_change':
      if (filter.cause !== undefined) return { slot: 'tenure_change.cause', key: filter.cause };
      return { slot: 'tenure_change.*', key: ANY };
    case 'balance_change':
      return { slot: 'balance_change.principal', key: filter.principal };
    default:
      return assertNever(filter);
  }
}
