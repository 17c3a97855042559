import type { BlockStore } from '../ports/block-store.js';
import type { EventLog } from '../ports/event-log.js';
import { readProcessedNote } from './processed-note.js';

/**
 * Where block processing stands, read from the stores, so every process (an api or a worker on
 * Postgres too) tells the same: the tip, what the node posted and what was processed, when the
 * last block came, and how far behind processing is.
 */
export type IngestProgress = {
  tip: { height: number; hash: string } | undefined;
  /** The newest entry the observer stored, and the last one processed. */
  newestEntry: { id: number; received_at: number } | undefined;
  processedEntry: number;
  entriesBehind: number;
  /** When the node posted the last block processed (ms since the epoch); undefined before the first. */
  lastBlockAt: number | undefined;
  /** How long the oldest entry not yet processed has waited (ms; 0 when processing is caught up). */
  lagMs: number;
};

/** Read where block processing stands, at `now` (ms). */
export async function readIngestProgress(
  log: EventLog,
  blocks: Pick<BlockStore, 'tip'>,
  now: number,
): Promise<IngestProgress> {
  const [tip, position, note] = await Promise.all([blocks.tip(), log.position(), log.processedNote()]);
  const entriesBehind = Math.max(0, (position.newest?.id ?? 0) - position.processed);
  // Only when behind is the waiting entry read (one entry, after the processed mark).
  const [waiting] = entriesBehind > 0 ? await log.readAfter(position.processed, 1) : [];
  return {
    tip: tip && { height: tip.height, hash: tip.hash },
    newestEntry: position.newest,
    processedEntry: position.processed,
    entriesBehind,
    lastBlockAt: readProcessedNote(note)?.block?.received_at,
    lagMs: waiting ? Math.max(0, now - waiting.received_at) : 0,
  };
}
