import type { ClarityValueRepr } from './clarity-value.js';

/**
 * An event a transaction emitted, with what filters look at, named as the
 * filters name them.
 *
 * `committed: false` marks an event of an aborted transaction: an effect that never happened.
 * Such events never become operations, and filters must skip them (event
 * filters see committed events only). They are kept, marked, only so that a transaction's event
 * list mirrors what the node reported (same `event_index` numbering) when a matcher is debugged;
 * nothing else may read them.
 */
export type TransactionEvent = { event_index: number; committed: boolean } & (
  | { type: 'stx_transfer'; sender: string; recipient: string; amount: string; memo: string | null }
  | { type: 'stx_mint'; recipient: string; amount: string }
  | { type: 'stx_burn'; sender: string; amount: string }
  | {
      type: 'stx_lock';
      locked_address: string;
      locked_amount: string;
      unlock_height: number;
      contract_identifier: string;
    }
  | { type: 'ft_transfer'; asset_identifier: string; sender: string; recipient: string; amount: string }
  | { type: 'ft_mint'; asset_identifier: string; recipient: string; amount: string }
  | { type: 'ft_burn'; asset_identifier: string; sender: string; amount: string }
  | {
      type: 'nft_transfer';
      asset_identifier: string;
      sender: string;
      recipient: string;
      value: ClarityValueRepr;
    }
  | { type: 'nft_mint'; asset_identifier: string; recipient: string; value: ClarityValueRepr }
  | { type: 'nft_burn'; asset_identifier: string; sender: string; value: ClarityValueRepr }
  | { type: 'contract_log'; contract_identifier: string; topic: string; value: ClarityValueRepr }
);
