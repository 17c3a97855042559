import type { BlockHeader } from './block-header.js';
import type { ChainGap } from './chain-gap.js';

/**
 * The storage the chain model reads and writes, so that the same algorithm runs over maps in a test
 * and over disk in an archive that holds millions of blocks. Hashes are normalized before any call.
 *
 * A block is *connected* once the chain model has placed it in the tree: the first block, a block
 * whose parent is connected, a block above the tip whose parent is missing (it opens a gap), or the
 * missing parent of a canonical block (it fills a gap). Until then it is an *orphan*, held by its
 * parent's hash and invisible to `header`.
 */
export interface ChainView {
  /** The header of a connected block, or undefined (unknown, or held as an orphan). */
  header(hash: string): Promise<BlockHeader | undefined>;
  /** The header of any stored block, connected or not (held, dropped, never connectable), or undefined. */
  storedHeader(hash: string): Promise<BlockHeader | undefined>;
  /** The hash of the canonical block at `height`, or undefined above the tip, in a gap or below the first block. */
  canonicalHashAt(height: number): Promise<string | undefined>;
  /** The canonical tip, or undefined before the first block. */
  tip(): Promise<BlockHeader | undefined>;
  /** Mark a block connected. */
  recordHeader(header: BlockHeader): Promise<void>;
  /** Make `hash` the canonical block at `height`. */
  setCanonicalHashAt(height: number, hash: string): Promise<void>;
  /** Leave no canonical block at `height` (it left the chain and nothing took its place: a gap). */
  clearCanonicalAt(height: number): Promise<void>;
  /** Make `header` the canonical tip; always called after the canonical hashes below it are set. */
  setTip(header: BlockHeader): Promise<void>;
  /** The open gaps, lowest first. */
  gaps(): Promise<ChainGap[]>;
  /** Replace the open gaps (lowest first). */
  setGaps(gaps: ChainGap[]): Promise<void>;
  /** Hold a block whose parent is not connected until that parent connects. */
  holdOrphan(header: BlockHeader): Promise<void>;
  /** The orphans held for `parentHash`, in the order they were held. */
  orphansByParent(parentHash: string): Promise<BlockHeader[]>;
  /** Stop holding the orphans of `parentHash` (they are being connected). */
  releaseOrphans(parentHash: string): Promise<void>;
  /** How many orphans are held. */
  orphanCount(): Promise<number>;
  /** Every held orphan, oldest first. */
  heldOrphans(): Promise<BlockHeader[]>;
  /** Stop holding one orphan for good: it stays stored, never connected. */
  dropOrphan(header: BlockHeader): Promise<void>;
}
