import type { ClarityValueRepr } from '../chain/clarity-value.js';
import type { TransactionEvent } from '../chain/transaction-event.js';
import type { EventFilter, NftValue } from '../hooks/definition.js';
import { assertNever } from './assert-never.js';
import { matchesNftValue } from './nft-value.js';

/** The filters that look at events: they match a transaction through one of its committed events. */
export type EventLevelFilter = Extract<
  EventFilter,
  {
    type:
      | 'ft_transfer'
      | 'ft_mint'
      | 'ft_burn'
      | 'ft_event'
      | 'nft_transfer'
      | 'nft_mint'
      | 'nft_burn'
      | 'nft_event'
      | 'stx_transfer'
      | 'stx_mint'
      | 'stx_burn'
      | 'stx_event'
      | 'contract_log';
  }
>;

const EVENT_LEVEL = new Set<EventFilter['type']>([
  'ft_transfer',
  'ft_mint',
  'ft_burn',
  'ft_event',
  'nft_transfer',
  'nft_mint',
  'nft_burn',
  'nft_event',
  'stx_transfer',
  'stx_mint',
  'stx_burn',
  'stx_event',
  'contract_log',
]);

/** Whether the filter is one that looks at events. */
export function isEventLevel(filter: EventFilter): filter is EventLevelFilter {
  return EVENT_LEVEL.has(filter.type);
}

/**
 * Whether this one event satisfies an event filter: of the filter's kind,
 * committed (an aborted transaction's events never happened), and every narrowing field given
 * equal to the event's (`receiver` is the event's recipient; `contract_log.sender` is `txSender`,
 * the transaction's sender).
 */
export function matchEvent(filter: EventLevelFilter, event: TransactionEvent, txSender: string): boolean {
  if (!event.committed) return false;
  switch (filter.type) {
    case 'ft_transfer':
      return (
        event.type === 'ft_transfer' &&
        holds(filter.asset_identifier, event.asset_identifier) &&
        holds(filter.sender, event.sender) &&
        holds(filter.receiver, event.recipient)
      );
    case 'ft_mint':
      return (
        event.type === 'ft_mint' &&
        holds(filter.asset_identifier, event.asset_identifier) &&
        holds(filter.receiver, event.recipient)
      );
    case 'ft_burn':
      return (
        event.type === 'ft_burn' &&
        holds(filter.asset_identifier, event.asset_identifier) &&
        holds(filter.sender, event.sender)
      );
    case 'ft_event':
      return (
        (event.type === 'ft_transfer' || event.type === 'ft_mint' || event.type === 'ft_burn') &&
        holds(filter.asset_identifier, event.asset_identifier)
      );
    case 'nft_transfer':
      return (
        event.type === 'nft_transfer' &&
        nftHolds(filter.asset_identifier, filter.value, event.asset_identifier, event.value) &&
        holds(filter.sender, event.sender) &&
        holds(filter.receiver, event.recipient)
      );
    case 'nft_mint':
      return (
        event.type === 'nft_mint' &&
        nftHolds(filter.asset_identifier, filter.value, event.asset_identifier, event.value) &&
        holds(filter.receiver, event.recipient)
      );
    case 'nft_burn':
      return (
        event.type === 'nft_burn' &&
        nftHolds(filter.asset_identifier, filter.value, event.asset_identifier, event.value) &&
        holds(filter.sender, event.sender)
      );
    case 'nft_event':
      return (
        (event.type === 'nft_transfer' || event.type === 'nft_mint' || event.type === 'nft_burn') &&
        nftHolds(filter.asset_identifier, filter.value, event.asset_identifier, event.value)
      );
    case 'stx_transfer':
      return (
        event.type === 'stx_transfer' &&
        holds(filter.sender, event.sender) &&
        holds(filter.receiver, event.recipient)
      );
    case 'stx_mint':
      return event.type === 'stx_mint' && holds(filter.receiver, event.recipient);
    case 'stx_burn':
      return event.type === 'stx_burn' && holds(filter.sender, event.sender);
    case 'stx_event':
      return (
        event.type === 'stx_transfer' ||
        event.type === 'stx_mint' ||
        event.type === 'stx_burn' ||
        event.type === 'stx_lock'
      );
    case 'contract_log':
      return (
        event.type === 'contract_log' &&
        holds(filter.contract_identifier, event.contract_identifier) &&
        holds(filter.sender, txSender)
      );
    default:
      return assertNever(filter);
  }
}

/** An omitted narrowing field holds for any value; a given one must equal it exactly. */
function holds(wanted: string | undefined, actual: string): boolean {
  return wanted === undefined || wanted === actual;
}

function nftHolds(
  asset: string | undefined,
  value: NftValue | undefined,
  eventAsset: string,
  id: ClarityValueRepr,
): boolean {
  return holds(asset, eventAsset) && (value === undefined || matchesNftValue(value, id));
}
