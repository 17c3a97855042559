import type { NormalizedBlock } from '../../core/chain/block.js';
import type { ArchiveChainView } from './archive-chain-view.js';
import { decodeBlockRecord } from './block-record.js';
import type { IndexSlot } from './hash-index.js';
import type { RecordLog } from './record-log.js';

/**
 * The canonical blocks at `from`..`to` (undefined where there is none), read as a range: one read of
 * the canonical index, one index lookup a hash, then the records in a few large reads of the log,
 * where a chain imported or received in height order lies in order. A backfill scans this way.
 */
export async function readCanonicalRange(
  view: ArchiveChainView,
  log: RecordLog,
  from: number,
  to: number,
): Promise<(NormalizedBlock | undefined)[]> {
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || to < from) return [];
  const first = Math.max(from, 0);
  const hashes = to < 0 ? [] : await view.canonicalHashesIn(first, to);
  const wanted: { at: number; slot: IndexSlot }[] = [];
  for (let i = 0; i < hashes.length; i++) {
    const hash = hashes[i];
    const slot = hash === undefined ? undefined : await view.slot(hash);
    if (slot !== undefined) wanted.push({ at: first - from + i, slot });
  }
  const bodies = await log.readMany(wanted.map(({ slot }) => slot));
  const blocks = new Array<NormalizedBlock | undefined>(to - from + 1).fill(undefined);
  for (let i = 0; i < wanted.length; i++) blocks[wanted[i].at] = decodeBlockRecord(bodies[i]);
  return blocks;
}
