import type { NormalizedTransaction } from '../chain/block.js';
import type { ClarityValueRepr } from '../chain/clarity-repr.js';
import type { IndexSlot } from './filter-key.js';
import { balanceAccount } from './balance-account.js';

/** Receives one index key a transaction could match; the same key may come more than once. */
export type KeyVisitor = (slot: IndexSlot, key: string) => void;

const ANY = '';

/**
 * Every index key under which a filter that matches `tx` can be filed (see `filterKey`): for
 * each committed event, its type's wildcard and each of its fields; for the transaction's kind,
 * its payload's fields and sender; for each balance-changing operation, its account. The keys are
 * a superset: whatever filter they reach, `matchTransaction` still decides.
 */
export function forEachTransactionKey(tx: NormalizedTransaction, visit: KeyVisitor): void {
  const sender = tx.metadata.sender_address;
  let printed = false;
  for (const e of tx.events) {
    if (!e.committed) continue;
    switch (e.type) {
      case 'ft_transfer':
        visit('ft_transfer.sender', e.sender);
        visit('ft_transfer.receiver', e.recipient);
        visit('ft_transfer.asset_identifier', e.asset_identifier);
        visit('ft_transfer.*', ANY);
        visitFtEvent(visit, e.asset_identifier);
        break;
      case 'ft_mint':
        visit('ft_mint.receiver', e.recipient);
        visit('ft_mint.asset_identifier', e.asset_identifier);
        visit('ft_mint.*', ANY);
        visitFtEvent(visit, e.asset_identifier);
        break;
      case 'ft_burn':
        visit('ft_burn.sender', e.sender);
        visit('ft_burn.asset_identifier', e.asset_identifier);
        visit('ft_burn.*', ANY);
        visitFtEvent(visit, e.asset_identifier);
        break;
      case 'nft_transfer':
        visit('nft_transfer.sender', e.sender);
        visit('nft_transfer.receiver', e.recipient);
        visit('nft_transfer.asset_identifier', e.asset_identifier);
        visitNftValue(visit, 'nft_transfer.value', e.value);
        visit('nft_transfer.*', ANY);
        visitNftEvent(visit, e.asset_identifier, e.value);
        break;
      case 'nft_mint':
        visit('nft_mint.receiver', e.recipient);
        visit('nft_mint.asset_identifier', e.asset_identifier);
        visitNftValue(visit, 'nft_mint.value', e.value);
        visit('nft_mint.*', ANY);
        visitNftEvent(visit, e.asset_identifier, e.value);
        break;
      case 'nft_burn':
        visit('nft_burn.sender', e.sender);
        visit('nft_burn.asset_identifier', e.asset_identifier);
        visitNftValue(visit, 'nft_burn.value', e.value);
        visit('nft_burn.*', ANY);
        visitNftEvent(visit, e.asset_identifier, e.value);
        break;
      case 'stx_transfer':
        visit('stx_transfer.sender', e.sender);
        visit('stx_transfer.receiver', e.recipient);
        visit('stx_transfer.*', ANY);
        visit('stx_event.*', ANY);
        break;
      case 'stx_mint':
        visit('stx_mint.receiver', e.recipient);
        visit('stx_mint.*', ANY);
        visit('stx_event.*', ANY);
        break;
      case 'stx_burn':
        visit('stx_burn.sender', e.sender);
        visit('stx_burn.*', ANY);
        visit('stx_event.*', ANY);
        break;
      case 'stx_lock':
        visit('stx_event.*', ANY);
        break;
      case 'contract_log':
        visit('contract_log.contract_identifier', e.contract_identifier);
        printed = true;
        break;
    }
  }
  if (printed) {
    visit('contract_log.sender', sender);
    visit('contract_log.*', ANY);
  }
  visitPayload(tx, visit);
  for (const op of tx.operations) {
    const account = balanceAccount(op);
    if (account !== undefined) visit('balance_change.principal', account);
  }
}

function visitPayload(tx: NormalizedTransaction, visit: KeyVisitor): void {
  const payload = tx.payload;
  const sender = tx.metadata.sender_address;
  switch (payload.type) {
    case 'contract_deploy':
      visit('contract_deploy.contract_identifier', payload.contract_identifier);
      visit('contract_deploy.sender', sender);
      visit('contract_deploy.*', ANY);
      break;
    case 'contract_call':
      visit('contract_call.sender', sender);
      visit('contract_call.contract_identifier', payload.contract_identifier);
      visit('contract_call.function_name', payload.function_name);
      visit('contract_call.*', ANY);
      break;
    case 'coinbase':
      visit('coinbase.*', ANY);
      break;
    case 'tenure_change':
      visit('tenure_change.cause', payload.cause.startsWith('extended') ? 'extended' : payload.cause);
      visit('tenure_change.*', ANY);
      break;
    case 'token_transfer':
    case 'poison_microblock':
      break;
  }
}

function visitFtEvent(visit: KeyVisitor, asset: string): void {
  visit('ft_event.asset_identifier', asset);
  visit('ft_event.*', ANY);
}

function visitNftEvent(visit: KeyVisitor, asset: string, value: ClarityValueRepr): void {
  visit('nft_event.asset_identifier', asset);
  visitNftValue(visit, 'nft_event.value', value);
  visit('nft_event.*', ANY);
}

/** The keys `nftValueKey` gives for values that can name this id: its repr, its hex, a hex-like repr in lower case. */
function visitNftValue(visit: KeyVisitor, slot: IndexSlot, value: ClarityValueRepr): void {
  visit(slot, value.repr);
  visit(slot, value.hex);
  if (value.repr.startsWith('0x')) visit(slot, value.repr.toLowerCase());
}
