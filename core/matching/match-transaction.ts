import type { NormalizedTransaction } from '../chain/block.js';
import type { ClarityValueRepr } from '../chain/clarity-repr.js';
import type { TransactionEvent } from '../chain/transaction-event.js';
import type { EventFilter, NftValue } from '../hooks/definition.js';
import { assertNever } from './assert-never.js';
import { balanceAccount } from './balance-account.js';
import { matchesNftValue } from './nft-value.js';

/**
 * Whether one filter matches a transaction, as compat.md section 4 defines it. Event filters see
 * committed events only; kind filters (`contract_deploy`, `contract_call`, `coinbase`,
 * `tenure_change`) match whatever the transaction's result. This is the reference: the hook index
 * only narrows which filters it asks.
 */
export function matchTransaction(filter: EventFilter, tx: NormalizedTransaction): boolean {
  switch (filter.type) {
    case 'ft_transfer':
      return someEvent(
        tx,
        (e) =>
          e.type === 'ft_transfer' &&
          holds(filter.asset_identifier, e.asset_identifier) &&
          holds(filter.sender, e.sender) &&
          holds(filter.receiver, e.recipient),
      );
    case 'ft_mint':
      return someEvent(
        tx,
        (e) =>
          e.type === 'ft_mint' &&
          holds(filter.asset_identifier, e.asset_identifier) &&
          holds(filter.receiver, e.recipient),
      );
    case 'ft_burn':
      return someEvent(
        tx,
        (e) =>
          e.type === 'ft_burn' &&
          holds(filter.asset_identifier, e.asset_identifier) &&
          holds(filter.sender, e.sender),
      );
    case 'ft_event':
      return someEvent(
        tx,
        (e) =>
          (e.type === 'ft_transfer' || e.type === 'ft_mint' || e.type === 'ft_burn') &&
          holds(filter.asset_identifier, e.asset_identifier),
      );
    case 'nft_transfer':
      return someEvent(
        tx,
        (e) =>
          e.type === 'nft_transfer' &&
          nftHolds(filter.asset_identifier, filter.value, e) &&
          holds(filter.sender, e.sender) &&
          holds(filter.receiver, e.recipient),
      );
    case 'nft_mint':
      return someEvent(
        tx,
        (e) =>
          e.type === 'nft_mint' &&
          nftHolds(filter.asset_identifier, filter.value, e) &&
          holds(filter.receiver, e.recipient),
      );
    case 'nft_burn':
      return someEvent(
        tx,
        (e) =>
          e.type === 'nft_burn' &&
          nftHolds(filter.asset_identifier, filter.value, e) &&
          holds(filter.sender, e.sender),
      );
    case 'nft_event':
      return someEvent(
        tx,
        (e) =>
          (e.type === 'nft_transfer' || e.type === 'nft_mint' || e.type === 'nft_burn') &&
          nftHolds(filter.asset_identifier, filter.value, e),
      );
    case 'stx_transfer':
      return someEvent(
        tx,
        (e) => e.type === 'stx_transfer' && holds(filter.sender, e.sender) && holds(filter.receiver, e.recipient),
      );
    case 'stx_mint':
      return someEvent(tx, (e) => e.type === 'stx_mint' && holds(filter.receiver, e.recipient));
    case 'stx_burn':
      return someEvent(tx, (e) => e.type === 'stx_burn' && holds(filter.sender, e.sender));
    case 'stx_event':
      return someEvent(
        tx,
        (e) => e.type === 'stx_transfer' || e.type === 'stx_mint' || e.type === 'stx_burn' || e.type === 'stx_lock',
      );
    case 'contract_deploy': {
      const payload = tx.payload;
      return (
        payload.type === 'contract_deploy' &&
        holds(filter.contract_identifier, payload.contract_identifier) &&
        holds(filter.sender, tx.metadata.sender_address)
      );
    }
    case 'contract_call': {
      const payload = tx.payload;
      return (
        payload.type === 'contract_call' &&
        holds(filter.contract_identifier, payload.contract_identifier) &&
        holds(filter.function_name, payload.function_name) &&
        holds(filter.sender, tx.metadata.sender_address)
      );
    }
    case 'contract_log':
      return (
        holds(filter.sender, tx.metadata.sender_address) &&
        someEvent(
          tx,
          (e) => e.type === 'contract_log' && holds(filter.contract_identifier, e.contract_identifier),
        )
      );
    case 'coinbase':
      return tx.payload.type === 'coinbase';
    case 'tenure_change': {
      const payload = tx.payload;
      if (payload.type !== 'tenure_change') return false;
      if (filter.cause === undefined) return true;
      // `extended` stands for the whole family (extended_runtime, extended_read_count, ...).
      return filter.cause === 'extended' ? payload.cause.startsWith('extended') : payload.cause === filter.cause;
    }
    case 'balance_change': {
      const principal = filter.principal;
      return tx.operations.some((op) => balanceAccount(op) === principal);
    }
    default:
      return assertNever(filter);
  }
}

/** Whether any of the filters matches the transaction (a hook's `filters.events`). */
export function matchesAnyFilter(filters: readonly EventFilter[], tx: NormalizedTransaction): boolean {
  for (const filter of filters) if (matchTransaction(filter, tx)) return true;
  return false;
}

/** An omitted narrowing field holds for any value; a given one must equal it exactly. */
function holds(wanted: string | undefined, actual: string): boolean {
  return wanted === undefined || wanted === actual;
}

function nftHolds(
  asset: string | undefined,
  value: NftValue | undefined,
  event: { asset_identifier: string; value: ClarityValueRepr },
): boolean {
  return holds(asset, event.asset_identifier) && (value === undefined || matchesNftValue(value, event.value));
}

/** Whether a committed event satisfies `test`: uncommitted events are effects that never happened. */
function someEvent(tx: NormalizedTransaction, test: (event: TransactionEvent) => boolean): boolean {
  for (const event of tx.events) if (event.committed && test(event)) return true;
  return false;
}
