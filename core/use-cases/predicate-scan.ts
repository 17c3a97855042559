import type { NormalizedBlock } from '../chain/block.js';
import type { NetworkPredicate } from '../chainhook-v1/predicate.js';
import { matchedIndexes, scopeMatcher } from '../chainhook-v1/scope-matcher.js';
import { shapeV1Payload } from '../chainhook-v1/shape-v1-payload.js';
import type { ChainhookV1Payload } from '../chainhook-v1/v1-payload.js';
import type { Network } from '../hooks/definition.js';
import { readCanonicalRange, type BlockStore } from '../ports/block-store.js';

/** Heights read from the archive at once. */
const HEIGHTS_PER_READ = 100;

/** What a scan is asked: one predicate's part for the network, over heights `from`..`to` of the archive. */
export type PredicateScanRequest = {
  blocks: BlockStore;
  uuid: string;
  predicate: NetworkPredicate;
  network: Network;
  from: number;
  to: number;
};

/** How far a scan got. */
export type ScanTally = {
  /** The last height looked at (`from - 1` before the first). */
  height: number;
  /** Canonical blocks evaluated. */
  scanned: number;
  /** Blocks that matched: one payload each. */
  matched: number;
  /** Heights of the range with no canonical block in the archive (a gap, or below its first block). */
  missing: number;
  /** Whether `expire_after_occurrence` ended it before `to`. */
  expired: boolean;
};

/**
 * Evaluate a 1.x predicate over a range of the archive's canonical chain, as 1.x's
 * `chainhook predicates scan` did: each matching block becomes one 1.x payload (its matched
 * transactions under `apply`, `is_streaming_blocks` false), handed to `take` in height order and
 * awaited before the next, so a slow sink slows the scan rather than piling payloads up. The scan
 * stops after `expire_after_occurrence` matches. `progress` hears the tally after each read.
 */
export async function scanPredicate(
  request: PredicateScanRequest,
  take: (payload: ChainhookV1Payload, block: NormalizedBlock) => Promise<void>,
  progress?: (tally: Readonly<ScanTally>) => void,
): Promise<ScanTally> {
  const { blocks, predicate, from, to } = request;
  const matcher = scopeMatcher(predicate.if_this);
  const limit = predicate.expire_after_occurrence ?? Infinity;
  const tally: ScanTally = { height: from - 1, scanned: 0, matched: 0, missing: 0, expired: false };
  for (let start = from; start <= to && !tally.expired;) {
    const end = Math.min(to, start + HEIGHTS_PER_READ - 1);
    const read = await readCanonicalRange(blocks, start, end);
    // A store may answer fewer heights than asked: the next read starts after what it gave.
    const next = start + Math.max(read.length, 1);
    for (let i = 0; i < read.length; i++) {
      const block = read[i];
      tally.height = start + i;
      if (!block) {
        tally.missing++;
        continue;
      }
      tally.scanned++;
      const match = matcher(block);
      if (!match) continue;
      const payload = shapeV1Payload({
        uuid: request.uuid,
        predicate,
        network: request.network,
        apply: [{ block, txIndexes: matchedIndexes(block, match) }],
        rollback: [],
        streaming: false,
      });
      await take(payload, block);
      tally.matched++;
      if (tally.matched >= limit) {
        tally.expired = true;
        break;
      }
    }
    progress?.(tally);
    start = next;
  }
  return tally;
}
