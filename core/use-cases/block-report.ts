import type { NormalizedBlock } from '../chain/block.js';
import type { ChainUpdate } from '../chain/chain-update.js';
import type { ChainUpdateOutcome } from '../ports/chain-update-sink.js';
import type { Logger } from '../ports/logger.js';

/** What processing one block the node posted did: for the log line, the metrics and readiness. */
export type BlockReport = {
  kind: 'processed';
  /** The event log entry the block came in (its id, and when the node posted it, ms). */
  eventId: number;
  receivedAt: number;
  height: number;
  hash: string;
  transactions: number;
  /** Blocks that left and joined the canonical chain (both 0: a duplicate, or an orphan held). */
  rolledBack: number;
  applied: number;
  /** Heights of the blocks rolled back, newest first. */
  rolledBackHeights: number[];
  /** Hooks whose filters matched, and payloads queued; absent when the sink does not tell. */
  hooksMatched?: number;
  payloadsQueued?: number;
  /** From reading the entry to its consequences stored. */
  ms: number;
  update: ChainUpdate;
};

/** A body the node posted that could not become a block; it was quarantined with `error` as the reason. */
export type UnreadableBlockReport = {
  kind: 'unreadable';
  eventId: number;
  receivedAt: number;
  error: string;
};

/** What happened to one `/new_block` entry. */
export type BlockEntryReport = BlockReport | UnreadableBlockReport;

/** The report of a processed block, from the block, its chain update and what the sink did. */
export function blockReport(
  entry: { id: number; received_at: number },
  block: NormalizedBlock,
  update: ChainUpdate,
  outcome: ChainUpdateOutcome | void,
  ms: number,
): BlockReport {
  return {
    kind: 'processed',
    eventId: entry.id,
    receivedAt: entry.received_at,
    height: block.block_identifier.index,
    hash: block.block_identifier.hash,
    transactions: block.transactions.length,
    rolledBack: update.rollback.length,
    applied: update.apply.length,
    rolledBackHeights: update.rollback.map((b) => b.height),
    ...(outcome && { hooksMatched: outcome.hooksMatched, payloadsQueued: outcome.payloadsQueued }),
    ms,
    update,
  };
}

/** Log a processed block at info, with a line of its own for a reorg (its depth and heights). */
export function logBlockReport(logger: Logger, report: BlockReport): void {
  if (report.rolledBack > 0) {
    const heights = report.rolledBackHeights;
    logger.info('chain reorganized', {
      depth: report.rolledBack,
      rolled_back_from: Math.min(...heights),
      rolled_back_to: Math.max(...heights),
      applied: report.applied,
      new_tip_height: report.height,
      new_tip_hash: report.hash,
      event_id: report.eventId,
    });
  }
  logger.info('block processed', {
    height: report.height,
    hash: report.hash,
    transactions: report.transactions,
    hooks_matched: report.hooksMatched ?? 0,
    payloads_queued: report.payloadsQueued ?? 0,
    ms: report.ms,
    event_id: report.eventId,
    ...(report.applied === 0 && { canonical: false }),
  });
}
