import type { NormalizedBlock } from '../chain/block.js';

/** A change of the canonical chain, with the blocks themselves: rollback newest first, apply oldest first. */
export type ChainEvent = {
  /** The raw event log entry that caused it (0 for an archive import). */
  eventId: number;
  rollback: NormalizedBlock[];
  apply: NormalizedBlock[];
  /**
   * Published again after a stop cut its processing off: the sink may hold some or all of what it
   * did with it the first time (it was published under the same `eventId`).
   */
  republished?: boolean;
};

/** What a sink did with a chain change, for the block's log line and the metrics. */
export type ChainUpdateOutcome = {
  /** Hooks whose filters matched a transaction of an applied block. */
  hooksMatched: number;
  /** Payloads queued (applies and rollbacks). */
  payloadsQueued: number;
};

/**
 * Where canonical chain changes go (matching and delivery). `chainUpdated` resolves only once the
 * consequences are stored durably, because the ingest marks the entry processed right after.
 */
export interface ChainUpdateSink {
  /** Take one chain change; a sink that matches hooks tells how many matched and what it queued. */
  chainUpdated(event: ChainEvent): Promise<ChainUpdateOutcome | void>;
}

export const CHAIN_UPDATE_SINK = Symbol.for('stackhooks.ChainUpdateSink');
