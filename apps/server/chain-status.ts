import type { ChainGap } from '../../core/chain/chain-gap.js';
import { missingHeights } from '../../core/chain/chain-gap.js';
import type { ServiceConditions, ServiceCondition } from '../../core/health/service-conditions.js';
import type { BlockStore } from '../../core/ports/block-store.js';
import type { PendingSummary } from '../../core/ports/delivery-queue.js';
import type { IngestProgress } from '../../core/use-cases/ingest-progress.js';
import type { ChainStatus, GapStatus } from '../../adapters/http-koa/index.js';

/** Open gaps the status route lists at most (lowest first); `open_gaps` counts them all. */
export const GAPS_LISTED = 20;
/** Quarantined bodies the status route lists (newest first); `quarantined_bodies` counts them all. */
export const QUARANTINED_LISTED = 10;

/** The condition shown while the chain misses heights: hooks get nothing of them until they are imported. */
export const CHAIN_GAP = 'chain_gap';

/**
 * What the status route tells of the chain: the tip, how far processing is behind the node, and the
 * chain's health as the block store keeps it (shared by every process on Postgres), with a
 * `chain_gap` condition while heights are missing.
 */
export async function readChainStatus(sources: {
  blocks: BlockStore;
  conditions: ServiceConditions;
  /** Where block processing stands: the tip, the entries, the last block's time and the lag. */
  progress: () => Promise<IngestProgress>;
  /** The outbox's depth. */
  outbox: () => Promise<PendingSummary>;
}): Promise<ChainStatus> {
  const { blocks, conditions } = sources;
  const [progress, archived, health, outbox] = await Promise.all([
    sources.progress(),
    blocks.count(),
    blocks.chainState(QUARANTINED_LISTED),
    sources.outbox(),
  ]);
  const { tip } = progress;
  const raised = conditions.list();
  const gap = gapCondition(health.gaps);
  return {
    chain_tip: tip ? { block_height: tip.height, index_block_hash: tip.hash } : null,
    archived_blocks: archived,
    ingest: {
      newest_entry: progress.newestEntry ?? null,
      processed_entry: progress.processedEntry,
      entries_behind: progress.entriesBehind,
      last_block_at: progress.lastBlockAt ?? null,
      lag_seconds: progress.lagMs / 1000,
    },
    chain: {
      last_block_received_at: health.lastReceivedAt,
      open_gaps: health.gaps.length,
      gaps: health.gaps.slice(0, GAPS_LISTED).map(gapStatus),
      held_orphans: health.heldOrphans,
      unreadable_blocks: health.unreadableBlocks,
      quarantined_bodies: health.quarantined.count,
      recent_quarantined: health.quarantined.recent,
    },
    outbox: { pending: outbox.pending, oldest_pending_created_at: outbox.oldestHeadCreatedAt ?? null },
    conditions: gap ? [...raised, gap] : raised,
  };
}

function gapStatus(gap: ChainGap): GapStatus {
  return {
    from_height: gap.from_height,
    to_height: gap.to_height,
    missing: missingHeights(gap),
    above: { block_height: gap.above.height, index_block_hash: gap.above.hash },
    opened_by: gap.opened_by,
    opened_at: gap.opened_at,
  };
}

/** The `chain_gap` condition for the open gaps, since the oldest opened; undefined when none is open. */
function gapCondition(gaps: ChainGap[]): ServiceCondition | undefined {
  if (gaps.length === 0) return undefined;
  const first = gaps[0];
  const heights = gaps.length === 1 ? '' : ` and ${gaps.length - 1} more gap(s)`;
  return {
    name: CHAIN_GAP,
    reason:
      `the chain misses heights ${first.from_height} to ${first.to_height}${heights}: ` +
      'hooks get nothing of them; import a recording that covers them (stackhooks import)',
    since: Math.min(...gaps.map((g) => g.opened_at)),
  };
}
