/**
 * Node-format `/new_block` bodies for tests, built from real signed transactions.
 *
 *   const chain = new ChainBuilder();
 *   const transfer = await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: 5n });
 *   const b1 = chain.next({ transactions: [transfer] });
 *   const b2 = chain.next({ transactions: [aborted(await contractCall({ ... }), 'abort_by_response')] });
 *   const side = chain.forkFrom(b1.index_block_hash).next(); // a sibling of b2
 *
 * Everything is deterministic: keys are fixed, signatures are RFC 6979, hashes come from a counter.
 * This file is the builder's whole public surface; transactions and events live in the two
 * `block-builder-*` files beside it.
 */
import { createHash } from 'node:crypto';
import type { BlockHeader } from '../../core/chain/block-header.js';
import type { NormalizedBlock } from '../../core/chain/block.js';
import { deriveIndexBlockHash } from '../../core/stacks-codec/index-block-hash.js';
import type { NodeBlock as ObservedBlock, NodeEvent } from '../../core/stacks-codec/node-block.js';
import { zeroCost } from './block-builder-events.js';
import type { BuiltTransaction, NodeTransaction } from './block-builder-transactions.js';

export { events, uncommitted } from './block-builder-events.js';
export type { EventSpec } from './block-builder-events.js';
export {
  TEST_KEYS,
  aborted,
  addressOf,
  contractCall,
  contractDeploy,
  stxTransfer,
  withEvents,
  withResult,
} from './block-builder-transactions.js';
export type {
  BuilderNetwork,
  BuiltTransaction,
  NodeTransaction,
  Signing,
  TxStatus,
} from './block-builder-transactions.js';
export type { NodeEvent } from '../../core/stacks-codec/node-block.js';

/** A `/new_block` body as ingest reads it, with the pre-Nakamoto fields all present (Nakamoto's are left out). */
export type NodeBlock = ObservedBlock & {
  parent_burn_block_hash: string;
  parent_burn_block_height: number;
  parent_burn_block_timestamp: number;
  miner_txid: string;
  parent_microblock: string;
  parent_microblock_sequence: number;
  matured_miner_rewards: [];
  anchored_cost: ReturnType<typeof zeroCost>;
  confirmed_microblocks_cost: ReturnType<typeof zeroCost>;
  transactions: NodeTransaction[];
  events: NodeEvent[];
};

/** The chain-model header of a node block. */
export function headerOf(block: NodeBlock): BlockHeader {
  return {
    hash: block.index_block_hash,
    height: block.block_height,
    parent_hash: block.parent_index_block_hash,
  };
}

/**
 * A NormalizedBlock with no transactions, for store and chain tests that must not depend on the
 * normalizer: its identifiers come from the node block (or header), its metadata is plausible filler.
 */
export function minimalNormalizedBlock(block: NodeBlock | BlockHeader, timestamp = 0): NormalizedBlock {
  const node = 'index_block_hash' in block ? block : undefined;
  const header = node === undefined ? (block as BlockHeader) : headerOf(node);
  return {
    block_identifier: { index: header.height, hash: header.hash },
    parent_block_identifier: { index: Math.max(header.height - 1, 0), hash: header.parent_hash },
    timestamp: node?.burn_block_time ?? timestamp,
    transactions: [],
    metadata: {
      burn_block_identifier: {
        index: node?.burn_block_height ?? 0,
        hash: node?.burn_block_hash ?? `0x${'0'.repeat(64)}`,
      },
      burn_block_timestamp: node?.burn_block_time ?? timestamp,
      parent_microblock_identifier: null,
      tenure_height: header.height,
      execution_cost: zeroCost(),
      tx_total_size: 0,
      tx_count: 0,
      signatures: { signer_bitvec: null, signer_signatures: null },
    },
  };
}

type Shared = { label: string; counter: number; blocks: Map<string, NodeBlock> };

/** Options of a new chain: a label that seeds its hashes, and where it starts. */
export type ChainOptions = {
  label?: string;
  startHeight?: number;
  burnStartHeight?: number;
  startTime?: number;
};

/**
 * Builds node blocks with consistent heights, parent links, burn heights and times. `forkFrom` gives
 * a builder for a branch of the same tree; all branches share one counter, so every hash is unique.
 */
export class ChainBuilder {
  #shared: Shared;
  #head: NodeBlock | undefined;
  #root: { height: number; hash: string; burnHeight: number; time: number };

  constructor(options: ChainOptions = {}) {
    const label = options.label ?? 'chain';
    this.#shared = { label, counter: 0, blocks: new Map() };
    const burnHeight = (options.burnStartHeight ?? 666_050) - 1;
    this.#root = {
      height: (options.startHeight ?? 1) - 1,
      hash: hashOf(label, 'root', 0),
      burnHeight,
      time: (options.startTime ?? 1_610_000_000) - 600,
    };
  }

  /** The block the next `next()` builds on; undefined before the first. */
  get head(): NodeBlock | undefined {
    return this.#head;
  }

  /** Every block built on any branch of this tree, in build order. */
  blocks(): NodeBlock[] {
    return [...this.#shared.blocks.values()];
  }

  /** Build the next block on this branch, numbering its transactions and events as the node does. */
  next(options: { transactions?: BuiltTransaction[] } = {}): NodeBlock {
    const n = ++this.#shared.counter;
    const parent = this.#head;
    const label = this.#shared.label;
    const burnHeight = (parent?.burn_block_height ?? this.#root.burnHeight) + 1;
    const parentTime = parent?.burn_block_time ?? this.#root.time;
    const transactions = options.transactions ?? [];
    const blockEvents: NodeEvent[] = [];
    for (const tx of transactions) {
      for (const event of tx.events) {
        // The `events` factories pair each type with its inner object; the union cannot see that.
        blockEvents.push({
          txid: tx.transaction.txid,
          event_index: blockEvents.length,
          committed: event.committed,
          type: event.type,
          [event.type]: event.payload,
        } as NodeEvent);
      }
    }
    const blockHash = hashOf(label, 'block', n);
    // The node's id of a block is derived from its hash and its sortition's consensus hash.
    const consensusHash = hashOf(label, 'consensus', n).slice(0, 42);
    const block: NodeBlock = {
      block_hash: blockHash,
      block_height: (parent?.block_height ?? this.#root.height) + 1,
      index_block_hash: deriveIndexBlockHash(blockHash, consensusHash),
      consensus_hash: consensusHash,
      parent_block_hash: parent?.block_hash ?? hashOf(label, 'root-block', 0),
      parent_index_block_hash: parent?.index_block_hash ?? this.#root.hash,
      burn_block_hash: hashOf(label, 'burn', n),
      burn_block_height: burnHeight,
      burn_block_time: parentTime + 600,
      parent_burn_block_hash: parent?.burn_block_hash ?? hashOf(label, 'root-burn', 0),
      parent_burn_block_height: burnHeight - 1,
      parent_burn_block_timestamp: parentTime,
      miner_txid: hashOf(label, 'miner', n),
      parent_microblock: `0x${'0'.repeat(64)}`,
      parent_microblock_sequence: 0,
      matured_miner_rewards: [],
      anchored_cost: zeroCost(),
      confirmed_microblocks_cost: zeroCost(),
      transactions: transactions.map((tx, tx_index) => ({ ...tx.transaction, tx_index })),
      events: blockEvents,
    };
    this.#shared.blocks.set(block.index_block_hash, block);
    this.#head = block;
    return block;
  }

  /** A builder for a new branch whose next block is a child of the block with this hash, or of this branch's block at this height. */
  forkFrom(hashOrHeight: string | number): ChainBuilder {
    const from =
      typeof hashOrHeight === 'number' ? this.#atHeight(hashOrHeight) : this.#shared.blocks.get(hashOrHeight);
    if (from === undefined) throw new Error(`no block ${hashOrHeight} to fork from`);
    const fork = new ChainBuilder();
    fork.#shared = this.#shared;
    fork.#root = this.#root;
    fork.#head = from;
    return fork;
  }

  #atHeight(height: number): NodeBlock | undefined {
    let cursor = this.#head;
    while (cursor !== undefined && cursor.block_height > height) {
      cursor = this.#shared.blocks.get(cursor.parent_index_block_hash);
    }
    return cursor?.block_height === height ? cursor : undefined;
  }
}

function hashOf(label: string, kind: string, n: number): string {
  return `0x${createHash('sha256').update(`${label}:${kind}:${n}`).digest('hex')}`;
}
