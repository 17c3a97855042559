import type { BlockHeader } from '../chain/block-header.js';
import type { NormalizedBlock } from '../chain/block.js';
import type { ChainGap } from '../chain/chain-gap.js';
import type { ChainUpdate } from '../chain/chain-update.js';

/** How a block came in: when it was received (ms since the epoch), which stamps a gap it opens. */
export type PutContext = { receivedAt?: number };

/** A body that could not become a block at all (poison), kept with why, so processing goes on. */
export type QuarantinedBody = {
  /** Why it is no block: the field and the problem. */
  reason: string;
  /** When it was received (ms since the epoch). */
  received_at: number;
  /** Where it came from: `event 123` (the raw event log entry) or `import FILE line 45`. */
  source: string;
  /** The hash and height it claimed, as given (null when unreadable). */
  index_block_hash: string | null;
  block_height: number | null;
  /** The body as received. */
  body: string;
};

/** A quarantined body without its body, as the status route lists it. */
export type QuarantineEntry = Omit<QuarantinedBody, 'body'>;

/** What the archive knows of the chain's health: what the status route and the metrics show. */
export type ChainState = {
  /** Open gaps, lowest first. */
  gaps: ChainGap[];
  /** Orphans held (blocks at or below the tip whose parent is unknown). */
  heldOrphans: number;
  /** Blocks archived with transactions that could not be decoded. */
  unreadableBlocks: number;
  /** When the last new block was stored (ms since the epoch), or null. */
  lastReceivedAt: number | null;
  /** Bodies quarantined, and the latest few, newest first. */
  quarantined: { count: number; recent: QuarantineEntry[] };
};

/**
 * Where blocks live, as a tree with its canonical chain. `put` stores a block and runs the chain
 * model (`applyBlockToChain`) in one step, so the chain always matches the stored blocks.
 *
 * The store does not extend `ChainView`: the view's writers (`setTip`, `setCanonicalHashAt`, ...) would
 * let a caller move the canonical chain without storing a block. Adapters implement the view
 * internally and expose only this port. Hash arguments may be in any case, with or without `0x`;
 * results always carry 0x-prefixed lowercase hex.
 */
export interface BlockStore {
  /**
   * Store a block (a no-op for a hash already stored) and return what it did to the canonical chain.
   * A block that can never take a place in the tree is refused with a validation error, and nothing
   * of it is stored.
   */
  put(block: NormalizedBlock, context?: PutContext): Promise<ChainUpdate>;
  /**
   * The same as `put` of each block in order, in as few round trips as the store can (archive
   * import writes in batches); optional: callers fall back to `put`.
   */
  putMany?(blocks: NormalizedBlock[], context?: PutContext): Promise<ChainUpdate[]>;
  /** Any stored block, canonical, on a side branch or held as an orphan; undefined when unknown. */
  getByHash(hash: string): Promise<NormalizedBlock | undefined>;
  /** The canonical block at `height`, or undefined above the tip, in a gap or below the first block. */
  getCanonicalAt(height: number): Promise<NormalizedBlock | undefined>;
  /**
   * The canonical blocks at heights `from`..`to`, in height order, undefined where there is none;
   * in as few reads as the store can (a backfill scans this way). A store may answer fewer heights
   * than asked, from `from` on and at least one, to bound what one answer holds (busy blocks); the
   * caller reads on after them. Optional: callers fall back to `getCanonicalAt`.
   */
  canonicalRange?(from: number, to: number): Promise<(NormalizedBlock | undefined)[]>;
  /** The canonical tip, or undefined while the store is empty. */
  tip(): Promise<BlockHeader | undefined>;
  /** True when the block is on the canonical chain. */
  isCanonical(hash: string): Promise<boolean>;
  /** How many distinct blocks are stored, canonical or not. */
  count(): Promise<number>;
  /** Keep a body that could not become a block, durably, with its reason. */
  quarantine(body: QuarantinedBody): Promise<void>;
  /** Gaps, held orphans, unreadable blocks and quarantined bodies, with the latest `recent` quarantined. */
  chainState(recent?: number): Promise<ChainState>;
}

/**
 * The canonical blocks of a store from `from` up to `to` (at least one height when `from` <= `to`,
 * maybe fewer than asked), undefined where there is none; in one read when the store can.
 */
export function readCanonicalRange(
  blocks: BlockStore,
  from: number,
  to: number,
): Promise<(NormalizedBlock | undefined)[]> {
  if (blocks.canonicalRange) return blocks.canonicalRange(from, to);
  const heights = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  return Promise.all(heights.map((height) => blocks.getCanonicalAt(height)));
}

/** Inversify token for the BlockStore. */
export const BLOCK_STORE = Symbol.for('stackhooks.BlockStore');
