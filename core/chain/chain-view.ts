import type { BlockHeader } from './block-header.js';

/**
 * The storage the chain model reads and writes, so that the same algorithm runs over maps in a test
 * and over disk in an archive that holds millions of blocks. Hashes are normalized before any call.
 *
 * A block is *connected* once it descends from the first block ever recorded; until its parent is
 * connected it is an *orphan*, held by its parent's hash and invisible to `header`.
 */
export interface ChainView {
  /** The header of a connected block, or undefined (unknown, or held as an orphan). */
  header(hash: string): Promise<BlockHeader | undefined>;
  /** The hash of the canonical block at `height`, or undefined above the tip or below the first block. */
  canonicalHashAt(height: number): Promise<string | undefined>;
  /** The canonical tip, or undefined before the first block. */
  tip(): Promise<BlockHeader | undefined>;
  /** Mark a block connected (its parent is connected, or it is the first block). */
  recordHeader(header: BlockHeader): Promise<void>;
  /** Make `hash` the canonical block at `height`. */
  setCanonicalHashAt(height: number, hash: string): Promise<void>;
  /** Make `header` the canonical tip; always called after the canonical hashes below it are set. */
  setTip(header: BlockHeader): Promise<void>;
  /** Hold a block whose parent is not connected until that parent connects. */
  holdOrphan(header: BlockHeader): Promise<void>;
  /** The orphans held for `parentHash`, in the order they were held. */
  orphansByParent(parentHash: string): Promise<BlockHeader[]>;
  /** Stop holding the orphans of `parentHash` (they are being connected). */
  releaseOrphans(parentHash: string): Promise<void>;
}
