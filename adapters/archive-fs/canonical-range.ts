import type { NormalizedBlock } from '../../core/chain/block.js';
import type { ArchiveChainView } from './archive-chain-view.js';
import { decodeBlockRecord } from './block-record.js';
import type { IndexSlot } from './hash-index.js';
import type { RecordLog } from './record-log.js';

/**
 * The canonical blocks from `from` up to `to` (undefined where there is none), read as a range: one
 * read of the canonical index, one index lookup a hash, then the records in a few large reads of the
 * log, where a chain imported or received in height order lies in order. A backfill scans this way.
 * The records read add up to at most `maxBytes`, or are the first block alone when it is larger: the
 * range then ends before the block that would pass it (a shorter answer, never an empty one), so
 * decoding one answer holds the event loop for a bounded time even across busy blocks.
 */
export async function readCanonicalRange(
  view: ArchiveChainView,
  log: RecordLog,
  from: number,
  to: number,
  maxBytes: number,
): Promise<(NormalizedBlock | undefined)[]> {
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || to < from) return [];
  const first = Math.max(from, 0);
  const hashes = to < 0 ? [] : await view.canonicalHashesIn(first, to);
  const wanted: { at: number; slot: IndexSlot }[] = [];
  let length = to - from + 1;
  let bytes = 0;
  for (let i = 0; i < hashes.length; i++) {
    const hash = hashes[i];
    const slot = hash === undefined ? undefined : await view.slot(hash);
    if (slot === undefined) continue;
    bytes += slot.length;
    if (bytes > maxBytes && wanted.length > 0) {
      length = first - from + i;
      break;
    }
    wanted.push({ at: first - from + i, slot });
  }
  const bodies = await log.readMany(wanted.map(({ slot }) => slot));
  const blocks = new Array<NormalizedBlock | undefined>(length).fill(undefined);
  for (let i = 0; i < wanted.length; i++) blocks[wanted[i].at] = decodeBlockRecord(bodies[i]);
  return blocks;
}
