import type { NormalizedTransaction } from '../chain/block.js';
import type { ClarityValueRepr } from '../chain/clarity-value.js';
import type { NormalizedOperation } from '../chain/operation.js';
import type { TransactionEvent } from '../chain/transaction-event.js';
import type { IndexSlot } from './filter-key.js';
import { balanceAccount } from './balance-account.js';

/**
 * What made a key: the event or operation a filter filed under it would match through, or null
 * for the transaction as a whole (its payload: kind filters).
 */
export type KeySource = TransactionEvent | NormalizedOperation | null;

/** Receives one index key a transaction could match, with its source; a key may come once per source. */
export type KeyVisitor = (slot: IndexSlot, key: string, source: KeySource) => void;

const ANY = '';

/**
 * Every index key under which a filter that matches `tx` can be filed (see `filterKey`), each with
 * its source: for each committed event, its type's wildcard and each of its fields (a print also
 * gives the transaction's sender); for the transaction's kind, its payload's fields and sender;
 * for each balance-changing operation, its account. The keys are a superset: a filter they reach
 * must still be confirmed against the source.
 */
export function forEachTransactionKey(tx: NormalizedTransaction, visit: KeyVisitor): void {
  const sender = tx.metadata.sender_address;
  for (const e of tx.events) {
    if (!e.committed) continue;
    switch (e.type) {
      case 'ft_transfer':
        visit('ft_transfer.sender', e.sender, e);
        visit('ft_transfer.receiver', e.recipient, e);
        visit('ft_transfer.asset_identifier', e.asset_identifier, e);
        visit('ft_transfer.*', ANY, e);
        visitFtEvent(visit, e);
        break;
      case 'ft_mint':
        visit('ft_mint.receiver', e.recipient, e);
        visit('ft_mint.asset_identifier', e.asset_identifier, e);
        visit('ft_mint.*', ANY, e);
        visitFtEvent(visit, e);
        break;
      case 'ft_burn':
        visit('ft_burn.sender', e.sender, e);
        visit('ft_burn.asset_identifier', e.asset_identifier, e);
        visit('ft_burn.*', ANY, e);
        visitFtEvent(visit, e);
        break;
      case 'nft_transfer':
        visit('nft_transfer.sender', e.sender, e);
        visit('nft_transfer.receiver', e.recipient, e);
        visit('nft_transfer.asset_identifier', e.asset_identifier, e);
        visitNftValue(visit, 'nft_transfer.value', e.value, e);
        visit('nft_transfer.*', ANY, e);
        visitNftEvent(visit, e);
        break;
      case 'nft_mint':
        visit('nft_mint.receiver', e.recipient, e);
        visit('nft_mint.asset_identifier', e.asset_identifier, e);
        visitNftValue(visit, 'nft_mint.value', e.value, e);
        visit('nft_mint.*', ANY, e);
        visitNftEvent(visit, e);
        break;
      case 'nft_burn':
        visit('nft_burn.sender', e.sender, e);
        visit('nft_burn.asset_identifier', e.asset_identifier, e);
        visitNftValue(visit, 'nft_burn.value', e.value, e);
        visit('nft_burn.*', ANY, e);
        visitNftEvent(visit, e);
        break;
      case 'stx_transfer':
        visit('stx_transfer.sender', e.sender, e);
        visit('stx_transfer.receiver', e.recipient, e);
        visit('stx_transfer.*', ANY, e);
        visit('stx_event.*', ANY, e);
        break;
      case 'stx_mint':
        visit('stx_mint.receiver', e.recipient, e);
        visit('stx_mint.*', ANY, e);
        visit('stx_event.*', ANY, e);
        break;
      case 'stx_burn':
        visit('stx_burn.sender', e.sender, e);
        visit('stx_burn.*', ANY, e);
        visit('stx_event.*', ANY, e);
        break;
      case 'stx_lock':
        visit('stx_event.*', ANY, e);
        break;
      case 'contract_log':
        visit('contract_log.contract_identifier', e.contract_identifier, e);
        visit('contract_log.sender', sender, e);
        visit('contract_log.*', ANY, e);
        break;
    }
  }
  visitPayload(tx, visit);
  for (const op of tx.operations) {
    const account = balanceAccount(op);
    if (account !== undefined) visit('balance_change.principal', account, op);
  }
}

function visitPayload(tx: NormalizedTransaction, visit: KeyVisitor): void {
  const payload = tx.payload;
  const sender = tx.metadata.sender_address;
  switch (payload.type) {
    case 'contract_deploy':
      visit('contract_deploy.contract_identifier', payload.contract_identifier, null);
      visit('contract_deploy.sender', sender, null);
      visit('contract_deploy.*', ANY, null);
      break;
    case 'contract_call':
      visit('contract_call.sender', sender, null);
      visit('contract_call.contract_identifier', payload.contract_identifier, null);
      visit('contract_call.function_name', payload.function_name, null);
      visit('contract_call.*', ANY, null);
      break;
    case 'coinbase':
      visit('coinbase.*', ANY, null);
      break;
    case 'tenure_change':
      visit('tenure_change.cause', payload.cause.startsWith('extended') ? 'extended' : payload.cause, null);
      visit('tenure_change.*', ANY, null);
      break;
    case 'token_transfer':
    case 'poison_microblock':
      break;
  }
}

type FtEvent = Extract<TransactionEvent, { type: 'ft_transfer' | 'ft_mint' | 'ft_burn' }>;
type NftEvent = Extract<TransactionEvent, { type: 'nft_transfer' | 'nft_mint' | 'nft_burn' }>;

function visitFtEvent(visit: KeyVisitor, e: FtEvent): void {
  visit('ft_event.asset_identifier', e.asset_identifier, e);
  visit('ft_event.*', ANY, e);
}

function visitNftEvent(visit: KeyVisitor, e: NftEvent): void {
  visit('nft_event.asset_identifier', e.asset_identifier, e);
  visitNftValue(visit, 'nft_event.value', e.value, e);
  visit('nft_event.*', ANY, e);
}

/** The keys `nftValueKey` gives for values that can name this id: its repr, its hex, a hex-like repr in lower case. */
function visitNftValue(visit: KeyVisitor, slot: IndexSlot, value: ClarityValueRepr, e: NftEvent): void {
  visit(slot, value.repr, e);
  visit(slot, value.hex, e);
  if (value.repr.startsWith('0x')) visit(slot, value.repr.toLowerCase(), e);
}
