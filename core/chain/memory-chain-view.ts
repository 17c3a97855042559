import type { BlockHeader } from './block-header.js';
import type { ChainView } from './chain-view.js';

/** A chain view over maps: for tests, and for embedders whose history fits in memory. */
export class MemoryChainView implements ChainView {
  /** Every connected block by hash. */
  readonly headers = new Map<string, BlockHeader>();
  /** The canonical hash by height. */
  readonly canonical = new Map<number, string>();
  /** Orphans by the hash of the parent they wait for. */
  readonly orphans = new Map<string, BlockHeader[]>();
  #tip: BlockHeader | undefined;

  async header(hash: string): Promise<BlockHeader | undefined> {
    return this.headers.get(hash);
  }

  async canonicalHashAt(height: number): Promise<string | undefined> {
    return this.canonical.get(height);
  }

  async tip(): Promise<BlockHeader | undefined> {
    return this.#tip;
  }

  async recordHeader(header: BlockHeader): Promise<void> {
    this.headers.set(header.hash, header);
  }

  async setCanonicalHashAt(height: number, hash: string): Promise<void> {
    this.canonical.set(height, hash);
  }

  async setTip(header: BlockHeader): Promise<void> {
    // A switch to a lower block leaves the old branch's entries above it; nothing is canonical there.
    let above = header.height + 1;
    while (this.canonical.delete(above)) above++;
    this.#tip = header;
  }

  async holdOrphan(header: BlockHeader): Promise<void> {
    const held = this.orphans.get(header.parent_hash) ?? [];
    this.orphans.set(header.parent_hash, [...held, header]);
  }

  async orphansByParent(parentHash: string): Promise<BlockHeader[]> {
    return this.orphans.get(parentHash) ?? [];
  }

  async releaseOrphans(parentHash: string): Promise<void> {
    this.orphans.delete(parentHash);
  }

  /** The canonical chain from the first block to the tip, oldest first. */
  canonicalChain(): string[] {
    const heights = [...this.canonical.keys()].sort((a, b) => a - b);
    return heights.map((height) => this.canonical.get(height) as string);
  }
}
