import type { NormalizedBlock } from '../chain/block.js';
import {
  OPERATIONS_VIEW,
  TRANSACTION_METADATA_VIEW,
  TRANSACTION_VIEW,
  VIEW,
  type PayloadView,
} from './payload-view.js';
import { shapeBlockMetadata, shapeOperations, shapeTransactionMetadata } from './shape-parts.js';
import type {
  PayloadBlock,
  PayloadBlockMetadata,
  PayloadOperation,
  PayloadTransaction,
  PayloadTransactionMetadata,
} from './webhook-payload.js';

/** Memo tables indexed by the view bits that matter to the piece, then by transaction index. */
type Table<T> = (T | undefined)[][];

/**
 * The shaped pieces of one normalized block, memoized per view. Every hook that matches the block
 * shares them, so a transaction is projected at most once per view however many hooks receive
 * it, and a hook's payload costs little more than picking its transactions. Each table is keyed
 * only by the view bits its piece depends on (apply and rollback share operations, for instance).
 */
export class BlockShapes {
  readonly #block: NormalizedBlock;
  readonly #transactions: Table<PayloadTransaction> = [];
  readonly #operations: Table<PayloadOperation[]> = [];
  readonly #metadata: Table<PayloadTransactionMetadata> = [];
  /**
   * Whole payload blocks per view, by `commonMatchKey`: most hooks match one transaction of a
   * block, or all of them, so most payloads share their block rather than build it.
   */
  readonly #blocks: Table<PayloadBlock> = [];
  /**
   * Payload blocks of the other transaction sets per view, by the set's indexes: hooks that watch
   * one kind of event (every STX transfer, say) match the same several transactions of a block,
   * and one shaped block lets their payloads share its serialized text in memory and on disk.
   */
  readonly #subsets: (Map<string, PayloadBlock> | undefined)[] = [];
  readonly #blockMetadata: (PayloadBlockMetadata | undefined)[] = [];

  constructor(block: NormalizedBlock) {
    this.#block = block;
  }

  /** The block in a view with only the transactions at `txIndexes` (ascending indexes into its transactions). */
  payloadBlock(txIndexes: readonly number[], view: PayloadView): PayloadBlock {
    const block = this.#block;
    const count = block.transactions.length;
    assertAscendingIndexes(txIndexes, count, block.block_identifier.hash);
    const key = commonMatchKey(txIndexes, count);
    const row = key < 0 ? undefined : (this.#blocks[view] ??= []);
    const subsets = key < 0 ? (this.#subsets[view] ??= new Map()) : undefined;
    const subsetKey = subsets === undefined ? '' : txIndexes.join(',');
    const cached = row?.[key] ?? subsets?.get(subsetKey);
    if (cached !== undefined) return cached;
    const transactions: PayloadTransaction[] = new Array(txIndexes.length);
    for (let i = 0; i < txIndexes.length; i++)
      transactions[i] = this.#transaction(txIndexes[i], view & TRANSACTION_VIEW);
    const shaped: PayloadBlock = {
      block_identifier: block.block_identifier,
      parent_block_identifier: block.parent_block_identifier,
      timestamp: block.timestamp,
      transactions,
    };
    if (view & VIEW.blockMetadata) shaped.metadata = this.#blockMetadataOf(view);
    if (row !== undefined) row[key] = shaped;
    else subsets!.set(subsetKey, shaped);
    return shaped;
  }

  #blockMetadataOf(view: PayloadView): PayloadBlockMetadata {
    const key = view & (VIEW.canonical | VIEW.blockSignatures);
    let shaped = this.#blockMetadata[key];
    if (shaped === undefined) {
      shaped = shapeBlockMetadata(this.#block.metadata, key);
      this.#blockMetadata[key] = shaped;
    }
    return shaped;
  }

  #transaction(index: number, txView: PayloadView): PayloadTransaction {
    const row = (this.#transactions[txView] ??= []);
    let shaped = row[index];
    if (shaped === undefined) {
      const tx = this.#block.transactions[index];
      shaped = {
        transaction_identifier: tx.transaction_identifier,
        operations: this.#operationsOf(index, txView & OPERATIONS_VIEW),
        metadata: this.#metadataOf(index, txView & TRANSACTION_METADATA_VIEW),
      };
      row[index] = shaped;
    }
    return shaped;
  }

  #operationsOf(index: number, key: PayloadView): PayloadOperation[] {
    const row = (this.#operations[key] ??= []);
    let shaped = row[index];
    if (shaped === undefined) {
      shaped = shapeOperations(this.#block.transactions[index].operations, key);
      row[index] = shaped;
    }
    return shaped;
  }

  #metadataOf(index: number, key: PayloadView): PayloadTransactionMetadata {
    const row = (this.#metadata[key] ??= []);
    let shaped = row[index];
    if (shaped === undefined) {
      shaped = shapeTransactionMetadata(this.#block.transactions[index].metadata, key);
      row[index] = shaped;
    }
    return shaped;
  }
}

/**
 * Where a match's block is memoized in the tables: the index of its one transaction, the
 * transaction count when it matched them all (indexes are ascending and distinct, so as many as
 * there are transactions means every one), or -1 for any other set, memoized by its indexes.
 */
function commonMatchKey(txIndexes: readonly number[], count: number): number {
  if (txIndexes.length === count) return count;
  return txIndexes.length === 1 ? txIndexes[0] : -1;
}

/** Thrown when a match's `txIndexes` are not ascending, distinct indexes into its block's transactions. */
function assertAscendingIndexes(txIndexes: readonly number[], count: number, blockHash: string): void {
  let previous = -1;
  // Indexed, not for-of: over a frozen array (HookIndex shares frozen one-transaction lists) V8
  // allocates an iterator for each for-of.
  for (let i = 0; i < txIndexes.length; i++) {
    const index = txIndexes[i];
    if (!Number.isInteger(index) || index <= previous || index >= count) {
      throw new RangeError(
        `block ${blockHash}: txIndexes must be ascending, distinct indexes below ${count}; got [${txIndexes.join(', ')}]`,
      );
    }
    previous = index;
  }
}

const memo = new WeakMap<NormalizedBlock, BlockShapes>();

/**
 * The memo of a normalized block. Kept beside the block, never on it (blocks are shared and may be
 * frozen), and weakly, so it goes when the block does.
 */
export function blockShapes(block: NormalizedBlock): BlockShapes {
  let shapes = memo.get(block);
  if (shapes === undefined) {
    shapes = new BlockShapes(block);
    memo.set(block, shapes);
  }
  return shapes;
}
