import type { NormalizedTransaction } from '../chain/block.js';
import type { EventFilter } from '../hooks/definition.js';
import { assertNever } from './assert-never.js';
import { balanceAccount } from './balance-account.js';
import { matchEvent } from './match-event.js';

/**
 * Whether one filter matches a transaction, as Hiro's Chainhooks API defines it. Event filters see
 * committed events only (`matchEvent`); kind filters (`contract_deploy`, `contract_call`,
 * `coinbase`, `tenure_change`) match whatever the transaction's result; `balance_change` looks at
 * the operations. This is the reference: the hook index only narrows which filters it asks.
 */
export function matchTransaction(filter: EventFilter, tx: NormalizedTransaction): boolean {
  switch (filter.type) {
    case 'ft_transfer':
    case 'ft_mint':
    case 'ft_burn':
    case 'ft_event':
    case 'nft_transfer':
    case 'nft_mint':
    case 'nft_burn':
    case 'nft_event':
    case 'stx_transfer':
    case 'stx_mint':
    case 'stx_burn':
    case 'stx_event':
    case 'contract_log': {
      const sender = tx.metadata.sender_address;
      for (const event of tx.events) if (matchEvent(filter, event, sender)) return true;
      return false;
    }
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
    case 'coinbase':
      return tx.payload.type === 'coinbase';
    case 'tenure_change': {
      const payload = tx.payload;
      if (payload.type !== 'tenure_change') return false;
      if (filter.cause === undefined) return true;
      // `extended` stands for the whole family (extended_runtime, extended_read_count, ...).
      return filter.cause === 'extended'
        ? payload.cause.startsWith('extended')
        : payload.cause === filter.cause;
    }
    case 'balance_change': {
      for (const op of tx.operations) if (balanceAccount(op) === filter.principal) return true;
      return false;
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
