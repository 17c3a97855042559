// Filters made from a transaction's own contents: every type that could describe it, with every
// subset of the narrowing fields its events, payload and operations give. Hooks built from them
// reach every path of the index, which random pool filters reach only by luck.
import type { NormalizedTransaction } from '../../../core/chain/block.js';
import type { ClarityValueRepr } from '../../../core/chain/clarity-value.js';
import type { EventFilter, NftValue } from '../../../core/hooks/definition.js';
import { balanceAccount } from '../../../core/matching/balance-account.js';

type Fields = Record<string, unknown>;

/** `{type}` plus every subset of `fields` (2^n filters). */
function subsets(type: EventFilter['type'], fields: Fields): EventFilter[] {
  const keys = Object.keys(fields);
  const out: EventFilter[] = [];
  for (let mask = 0; mask < 1 << keys.length; mask++) {
    const filter: Fields = { type };
    keys.forEach((key, bit) => {
      if (mask & (1 << bit)) filter[key] = fields[key];
    });
    out.push(filter as EventFilter);
  }
  return out;
}

/** Every form a filter `value` can name this token id in. */
function valueForms(id: ClarityValueRepr): NftValue[] {
  const forms: NftValue[] = [id.repr, id.hex, `0x${id.hex.slice(2).toUpperCase()}`];
  if (id.type === 'uint' && BigInt(id.repr.slice(1)) <= BigInt(Number.MAX_SAFE_INTEGER))
    forms.push(Number(id.repr.slice(1)));
  return forms;
}

/** Filters of all 18 types drawn from the transaction (from committed and uncommitted events alike). */
export function derivedFilters(tx: NormalizedTransaction): EventFilter[] {
  const sender = tx.metadata.sender_address;
  const out: EventFilter[] = [{ type: 'stx_event' }, { type: 'coinbase' }, { type: 'tenure_change' }];
  for (const e of tx.events) {
    switch (e.type) {
      case 'ft_transfer':
        out.push(
          ...subsets('ft_transfer', {
            asset_identifier: e.asset_identifier,
            sender: e.sender,
            receiver: e.recipient,
          }),
        );
        out.push(...subsets('ft_event', { asset_identifier: e.asset_identifier }));
        break;
      case 'ft_mint':
        out.push(...subsets('ft_mint', { asset_identifier: e.asset_identifier, receiver: e.recipient }));
        out.push(...subsets('ft_event', { asset_identifier: e.asset_identifier }));
        break;
      case 'ft_burn':
        out.push(...subsets('ft_burn', { asset_identifier: e.asset_identifier, sender: e.sender }));
        out.push(...subsets('ft_event', { asset_identifier: e.asset_identifier }));
        break;
      case 'nft_transfer':
      case 'nft_mint':
      case 'nft_burn':
        for (const value of valueForms(e.value)) {
          const principals =
            e.type === 'nft_transfer'
              ? { sender: e.sender, receiver: e.recipient }
              : e.type === 'nft_mint'
                ? { receiver: e.recipient }
                : { sender: e.sender };
          out.push(...subsets(e.type, { asset_identifier: e.asset_identifier, value, ...principals }));
          out.push(...subsets('nft_event', { asset_identifier: e.asset_identifier, value }));
        }
        break;
      case 'stx_transfer':
        out.push(...subsets('stx_transfer', { sender: e.sender, receiver: e.recipient }));
        break;
      case 'stx_mint':
        out.push(...subsets('stx_mint', { receiver: e.recipient }));
        break;
      case 'stx_burn':
        out.push(...subsets('stx_burn', { sender: e.sender }));
        break;
      case 'stx_lock':
        break;
      case 'contract_log':
        out.push(...subsets('contract_log', { contract_identifier: e.contract_identifier, sender }));
        break;
    }
  }
  const payload = tx.payload;
  if (payload.type === 'contract_deploy') {
    out.push(...subsets('contract_deploy', { contract_identifier: payload.contract_identifier, sender }));
  } else if (payload.type === 'contract_call') {
    out.push(
      ...subsets('contract_call', {
        contract_identifier: payload.contract_identifier,
        function_name: payload.function_name,
        sender,
      }),
    );
  } else if (payload.type === 'tenure_change') {
    out.push({ type: 'tenure_change', cause: 'block_found' }, { type: 'tenure_change', cause: 'extended' });
  }
  for (const op of tx.operations) {
    const principal = balanceAccount(op);
    if (principal !== undefined) out.push({ type: 'balance_change', principal });
  }
  return out;
}
