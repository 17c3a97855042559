// Reshaping generated transactions for the properties about uncommitted events.
import type { NormalizedBlock, NormalizedTransaction } from '../../../core/chain/block.js';
import { buildOperations } from '../../../core/chain/operations.js';
import type { TransactionEvent } from '../../../core/chain/transaction-event.js';

/** The transaction with these events, its operations rebuilt from them as normalizeBlock would. */
export function withEventList(tx: NormalizedTransaction, events: TransactionEvent[]): NormalizedTransaction {
  const operations = buildOperations({
    status: tx.metadata.status,
    sender: tx.metadata.sender_address,
    sponsor: tx.metadata.sponsor_address,
    fee: tx.metadata.fee_rate,
    payload: tx.payload,
    abiJson: null,
    events,
  });
  return { ...tx, events, operations };
}

/** Each event's `committed` taken from `flags` in turn (cycling), whatever the status. */
export function withMixedCommits(
  tx: NormalizedTransaction,
  flags: readonly boolean[],
): NormalizedTransaction {
  if (flags.length === 0) return tx;
  return withEventList(
    tx,
    tx.events.map((event, i) => ({ ...event, committed: flags[(event.event_index + i) % flags.length] })),
  );
}

/** The transaction without its uncommitted events. */
export function withoutUncommitted(tx: NormalizedTransaction): NormalizedTransaction {
  return withEventList(
    tx,
    tx.events.filter((event) => event.committed),
  );
}

/** The block with `reshape` applied to each transaction. */
export function mapTransactions(
  block: NormalizedBlock,
  reshape: (tx: NormalizedTransaction) => NormalizedTransaction,
): NormalizedBlock {
  return { ...block, transactions: block.transactions.map(reshape) };
}
