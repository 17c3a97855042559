// Arbitrary normalized blocks: the transactions of arbitraryTransaction, numbered as a node numbers them.
import fc from 'fast-check';
import type { NormalizedBlock, NormalizedTransaction } from '../../../core/chain/block.js';
import { arbitraryHex } from './identifiers.js';
import { arbitraryTransaction, type TransactionOptions } from './transaction.js';

/** Options of arbitraryBlock. */
export type BlockOptions = Omit<TransactionOptions, 'index'> & {
  /** The most transactions; 8 by default (0 is possible). */
  maxTransactions?: number;
};

/**
 * A block as normalizeBlock makes it: transactions at positions 0, 1, …, events numbered across
 * the block in transaction order, and metadata that agrees (`tx_count`, `tx_total_size`); a
 * pre-Nakamoto block (no signatures) with zero execution costs.
 */
export function arbitraryBlock(options: BlockOptions = {}): fc.Arbitrary<NormalizedBlock> {
  return fc
    .record({
      height: fc.integer({ min: 1, max: 5_000_000 }),
      hash: arbitraryHex(32),
      parentHash: arbitraryHex(32),
      burnHash: arbitraryHex(32),
      burnHeight: fc.integer({ min: 666_050, max: 1_000_000 }),
      time: fc.integer({ min: 1_610_000_000, max: 2_000_000_000 }),
      transactions: fc.array(arbitraryTransaction(options), { maxLength: options.maxTransactions ?? 8 }),
    })
    .map((b) => {
      let eventIndex = 0;
      const transactions: NormalizedTransaction[] = b.transactions.map((tx, index) => ({
        ...tx,
        metadata: { ...tx.metadata, position: { index, microblock_identifier: null } },
        events: tx.events.map((event) => ({ ...event, event_index: eventIndex++ })),
      }));
      return {
        block_identifier: { index: b.height, hash: b.hash },
        parent_block_identifier: { index: b.height - 1, hash: b.parentHash },
        timestamp: b.time,
        transactions,
        metadata: {
          burn_block_identifier: { index: b.burnHeight, hash: b.burnHash },
          burn_block_timestamp: b.time,
          parent_microblock_identifier: null,
          tenure_height: b.height,
          execution_cost: { read_count: 0, read_length: 0, runtime: 0, write_count: 0, write_length: 0 },
          tx_total_size: transactions.reduce((sum, tx) => sum + (tx.metadata.raw_tx.length - 2) / 2, 0),
          tx_count: transactions.length,
          signatures: { signer_bitvec: null, signer_signatures: null },
        },
      };
    });
}
