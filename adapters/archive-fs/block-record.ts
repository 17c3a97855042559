import type { NormalizedBlock, NormalizedTransaction } from '../../core/chain/block.js';
import { withOperations, type TransactionWithoutOperations } from '../../core/chain/operations.js';

// A block record's body is the normalized block as JSON without the transactions' operations. They
// are about half of a busy block's JSON, and every field they are built from is stored, so `get`
// builds them again (withOperations, as normalization does): less to stringify and write on put,
// less to parse on get. A record that does hold operations (written before this layout) keeps them.

/** The JSON body of a block's record. */
export function encodeBlockRecord(block: NormalizedBlock): Buffer {
  const transactions: TransactionWithoutOperations[] = block.transactions.map(
    ({ transaction_identifier, metadata, payload, events }) => ({
      transaction_identifier,
      metadata,
      payload,
      events,
    }),
  );
  return Buffer.from(JSON.stringify({ ...block, transactions }));
}

/** The normalized block a record's JSON body holds, operations built again. */
export function decodeBlockRecord(body: Buffer): NormalizedBlock {
  const stored = JSON.parse(body.toString('utf8')) as Omit<NormalizedBlock, 'transactions'> & {
    transactions: (TransactionWithoutOperations | NormalizedTransaction)[];
  };
  return {
    ...stored,
    transactions: stored.transactions.map((tx) => ('operations' in tx ? tx : withOperations(tx))),
  };
}
