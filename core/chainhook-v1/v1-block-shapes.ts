import type { NormalizedBlock } from '../chain/block.js';
import type { Network } from '../hooks/definition.js';
import type { V1Block, V1BlockMetadata, V1Transaction } from './v1-payload.js';
import { shapeV1Transaction, type V1TransactionView } from './v1-transaction.js';

// The networks' PoX constants (first burn height of cycle 0, cycle length), as the node's /v2/pox reports them.
const POX: Record<Network, { first: number; length: number }> = {
  mainnet: { first: 666_050, length: 2_100 },
  testnet: { first: 2_000_001, length: 1_050 },
};

/** The view's bits: the only predicate fields that change how a block's transactions are shown. */
const DECODE = 1;
const ABI = 2;

/**
 * The 1.x pieces of one normalized block, memoized: each transaction once per view, and each
 * whole 1.x block once per network, view and set of transactions. Predicates that match a block
 * alike (the same transactions, the same `decode_clarity_values` and `include_contract_abi`) get
 * the same block object, so its serialized text is shared too (`serializePayload`), and the 1,000th
 * such payload costs its `chainhook` part, not its block. The objects are shared: read-only.
 */
export class V1BlockShapes {
  readonly #block: NormalizedBlock;
  readonly #transactions: (V1Transaction | undefined)[][] = [];
  readonly #blocks = new Map<string, V1Block>();
  readonly #metadata = new Map<Network, V1BlockMetadata>();

  constructor(block: NormalizedBlock) {
    this.#block = block;
  }

  /** The block as 1.x posted it, with only the transactions at `txIndexes`, in that order. */
  v1Block(txIndexes: readonly number[], view: V1TransactionView, network: Network): V1Block {
    const bits = (view.decode_clarity_values ? DECODE : 0) | (view.include_contract_abi ? ABI : 0);
    const key = `${network}|${bits}|${txIndexes.join(',')}`;
    let shaped = this.#blocks.get(key);
    if (shaped !== undefined) return shaped;
    const block = this.#block;
    const row = (this.#transactions[bits] ??= []);
    const transactions: V1Transaction[] = new Array(txIndexes.length);
    for (let i = 0; i < txIndexes.length; i++) {
      const index = txIndexes[i];
      const tx = block.transactions[index];
      if (tx === undefined)
        throw new RangeError(
          `block ${block.block_identifier.hash}: no transaction ${index} (it has ${block.transactions.length})`,
        );
      transactions[i] = row[index] ??= shapeV1Transaction(tx, view);
    }
    shaped = {
      block_identifier: block.block_identifier,
      parent_block_identifier: block.parent_block_identifier,
      timestamp: block.metadata.burn_block_timestamp,
      transactions,
      metadata: this.#metadataOn(network),
    };
    this.#blocks.set(key, shaped);
    return shaped;
  }

  #metadataOn(network: Network): V1BlockMetadata {
    let shaped = this.#metadata.get(network);
    if (shaped === undefined) {
      shaped = v1BlockMetadata(this.#block, network);
      this.#metadata.set(network, shaped);
    }
    return shaped;
  }
}

function v1BlockMetadata(block: NormalizedBlock, network: Network): V1BlockMetadata {
  const { metadata } = block;
  const pox = POX[network];
  const sinceFirst = Math.max(0, metadata.burn_block_identifier.index - pox.first);
  return {
    bitcoin_anchor_block_identifier: metadata.burn_block_identifier,
    confirm_microblock_identifier: metadata.parent_microblock_identifier,
    pox_cycle_index: Math.floor(sinceFirst / pox.length),
    pox_cycle_length: pox.length,
    pox_cycle_position: sinceFirst % pox.length,
    stacks_block_hash: block.block_identifier.hash,
    block_time: block.timestamp,
    tenure_height: metadata.tenure_height,
    cycle_number: null,
    reward_set: null,
    signer_bitvec: metadata.signatures.signer_bitvec,
    signer_signature: metadata.signatures.signer_signatures,
    signer_public_keys: null,
  };
}

const memo = new WeakMap<NormalizedBlock, V1BlockShapes>();

/**
 * The 1.x memo of a normalized block. Kept beside the block, never on it (blocks are shared and may
 * be frozen), and weakly, so it goes when the block does.
 */
export function v1BlockShapes(block: NormalizedBlock): V1BlockShapes {
  let shapes = memo.get(block);
  if (shapes === undefined) {
    shapes = new V1BlockShapes(block);
    memo.set(block, shapes);
  }
  return shapes;
}
