import type { TransactionEvent } from '../chain/transaction-event.js';
import { decodeClarityValue, type ReprCache } from './clarity-repr.js';
import type { NodeEvent } from './node-block.js';

/**
 * The normalized form of a node event, or undefined for an event type this version does not know
 * (nodes add types over time; an unknown one must not stop the block). A lock without a contract
 * (nodes before 2.1) was made by `pox`, the only PoX contract then, owned by `bootAddress`.
 */
export function normalizeEvent(
  event: NodeEvent,
  bootAddress: string,
  cache: ReprCache,
): TransactionEvent | undefined {
  // Object literals, not spreads of a shared base: this runs for every event of every block.
  const { event_index, committed } = event;
  switch (event.type) {
    case 'stx_transfer_event': {
      const e = event.stx_transfer_event;
      const memo = e.memo ? (e.memo.startsWith('0x') ? e.memo : `0x${e.memo}`) : null;
      return {
        event_index,
        committed,
        type: 'stx_transfer',
        sender: e.sender,
        recipient: e.recipient,
        amount: e.amount,
        memo,
      };
    }
    case 'stx_mint_event': {
      const e = event.stx_mint_event;
      return { event_index, committed, type: 'stx_mint', recipient: e.recipient, amount: e.amount };
    }
    case 'stx_burn_event': {
      const e = event.stx_burn_event;
      return { event_index, committed, type: 'stx_burn', sender: e.sender, amount: e.amount };
    }
    case 'stx_lock_event': {
      const e = event.stx_lock_event;
      return {
        event_index,
        committed,
        type: 'stx_lock',
        locked_address: e.locked_address,
        locked_amount: e.locked_amount,
        unlock_height: Number(e.unlock_height),
        contract_identifier: e.contract_identifier ?? `${bootAddress}.pox`,
      };
    }
    case 'ft_transfer_event': {
      const e = event.ft_transfer_event;
      return {
        event_index,
        committed,
        type: 'ft_transfer',
        asset_identifier: e.asset_identifier,
        sender: e.sender ?? '',
        recipient: e.recipient ?? '',
        amount: e.amount,
      };
    }
    case 'ft_mint_event': {
      const e = event.ft_mint_event;
      return {
        event_index,
        committed,
        type: 'ft_mint',
        asset_identifier: e.asset_identifier,
        recipient: e.recipient ?? '',
        amount: e.amount,
      };
    }
    case 'ft_burn_event': {
      const e = event.ft_burn_event;
      return {
        event_index,
        committed,
        type: 'ft_burn',
        asset_identifier: e.asset_identifier,
        sender: e.sender ?? '',
        amount: e.amount,
      };
    }
    case 'nft_transfer_event': {
      const e = event.nft_transfer_event;
      return {
        event_index,
        committed,
        type: 'nft_transfer',
        asset_identifier: e.asset_identifier,
        sender: e.sender ?? '',
        recipient: e.recipient ?? '',
        value: decodeClarityValue(e.raw_value, cache),
      };
    }
    case 'nft_mint_event': {
      const e = event.nft_mint_event;
      const value = decodeClarityValue(e.raw_value, cache);
      return {
        event_index,
        committed,
        type: 'nft_mint',
        asset_identifier: e.asset_identifier,
        recipient: e.recipient ?? '',
        value,
      };
    }
    case 'nft_burn_event': {
      const e = event.nft_burn_event;
      const value = decodeClarityValue(e.raw_value, cache);
      return {
        event_index,
        committed,
        type: 'nft_burn',
        asset_identifier: e.asset_identifier,
        sender: e.sender ?? '',
        value,
      };
    }
    case 'contract_event': {
      const e = event.contract_event;
      return {
        event_index,
        committed,
        type: 'contract_log',
        contract_identifier: e.contract_identifier,
        topic: e.topic,
        value: decodeClarityValue(e.raw_value, cache),
      };
    }
    default:
      return undefined;
  }
}
