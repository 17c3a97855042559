import type { NormalizedBlock } from '../../core/chain/block.js';
import type { ArchiveChainView } from './archive-chain-view.js';
import { decodeBlockRecord } from './block-record.js';
import type { IndexSlot } from './hash-index.js';
import type { LogPosition, RecordLog } from './record-log.js';

/** A walk's reads are at least this large, so a short run of small records costs one read. */
const WALK_READ_MIN = 64 * 1024;

/**
 * The canonical blocks from `from` up to `to` (undefined where there is none), read as a range: one
 * read of the canonical index, then the log read on from the first block's record, where a chain
 * imported or received in height order lies in order, so the blocks come in a few large reads and
 * one index lookup. A block not met that way (it lies elsewhere in the log) is looked up in the
 * index. The records taken add up to at most `maxBytes`, or are the first block alone when it is
 * larger: the range then ends before the block that would pass it (a shorter answer, never an empty
 * one), so decoding one answer holds the event loop for a bounded time even across busy blocks.
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
  const met = await walkLog(view, log, hashes, maxBytes);
  const bodies = new Map<number, Buffer>();
  const looked: { at: number; slot: IndexSlot }[] = [];
  let length = to - from + 1;
  let bytes = 0;
  for (let i = 0; i < hashes.length; i++) {
    const hash = hashes[i];
    if (hash === undefined) continue;
    const record = met.get(hash);
    const slot = record === undefined ? await view.slot(hash) : undefined;
    if (record === undefined && slot === undefined) continue;
    bytes += record?.length ?? slot!.length;
    if (bytes > maxBytes && bodies.size + looked.length > 0) {
      length = first - from + i;
      break;
    }
    if (record) bodies.set(first - from + i, record.body);
    else looked.push({ at: first - from + i, slot: slot! });
  }
  const read = await log.readMany(looked.map(({ slot }) => slot));
  for (let i = 0; i < looked.length; i++) bodies.set(looked[i].at, read[i]);
  const blocks = new Array<NormalizedBlock | undefined>(length).fill(undefined);
  for (const [at, body] of bodies) if (at < length) blocks[at] = decodeBlockRecord(body);
  return blocks;
}

/**
 * The records of `hashes` met reading the log on from the first one's record, by hash (each body
 * crc-checked, with the record's length on disk), reading at most `maxBytes`; what is not met is
 * left to index lookups.
 */
async function walkLog(
  view: ArchiveChainView,
  log: RecordLog,
  hashes: (string | undefined)[],
  maxBytes: number,
): Promise<Map<string, { body: Buffer; length: number }>> {
  const met = new Map<string, { body: Buffer; length: number }>();
  const wanted = new Set(hashes.filter((hash): hash is string => hash !== undefined));
  const firstHash = hashes.find((hash) => hash !== undefined);
  const start = firstHash === undefined ? undefined : await view.slot(firstHash);
  if (start === undefined) return met;
  // About what the wanted records take if they are alike and in a row; read on for more if not.
  const guess = Math.max(WALK_READ_MIN, Math.ceil(start.length * wanted.size * 1.25));
  let position: LogPosition | undefined = start;
  let read = 0;
  while (position !== undefined && read < maxBytes && met.size < wanted.size) {
    const bytes = Math.min(maxBytes - read, guess);
    const { records, next } = await log.readOn(position, bytes);
    for (const record of records) {
      read += record.length;
      if (wanted.has(record.hash)) met.set(record.hash, { body: record.body(), length: record.length });
    }
    // A record larger than what is left to read is left to a lookup.
    if (records.length === 0 && next?.segment === position.segment) break;
    position = next;
  }
  return met;
}
