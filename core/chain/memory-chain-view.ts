import type { BlockHeader } from './block-header.js';
import type { ChainGap } from './chain-gap.js';
import type { ChainView } from './chain-view.js';

/** A chain view over maps: for tests, and for embedders whose history fits in memory. */
export class MemoryChainView implements ChainView {
  /** Every connected block by hash. */
  readonly headers = new Map<string, BlockHeader>();
  /** Every block the chain model was given, connected or not, by hash. */
  readonly stored = new Map<string, BlockHeader>();
  /** The canonical hash by height. */
  readonly canonical = new Map<number, string>();
  /** Orphans by the hash of the parent they wait for. */
  readonly orphans = new Map<string, BlockHeader[]>();
  /** Held orphans by hash, in the order they were held. */
  readonly #held = new Map<string, BlockHeader>();
  #gaps: ChainGap[] = [];
  #tip: BlockHeader | undefined;

  async header(hash: string): Promise<BlockHeader | undefined> {
    return this.headers.get(hash);
  }

  async storedHeader(hash: string): Promise<BlockHeader | undefined> {
    return this.stored.get(hash);
  }

  async canonicalHashAt(height: number): Promise<string | undefined> {
    return this.canonical.get(height);
  }

  async tip(): Promise<BlockHeader | undefined> {
    return this.#tip;
  }

  async recordHeader(header: BlockHeader): Promise<void> {
    this.headers.set(header.hash, header);
    this.stored.set(header.hash, header);
  }

  async setCanonicalHashAt(height: number, hash: string): Promise<void> {
    this.canonical.set(height, hash);
  }

  async clearCanonicalAt(height: number): Promise<void> {
    this.canonical.delete(height);
  }

  async setTip(header: BlockHeader): Promise<void> {
    // A switch to a lower block leaves the old branch's entries above it; nothing is canonical there.
    for (const height of this.canonical.keys()) if (height > header.height) this.canonical.delete(height);
    this.#tip = header;
  }

  async gaps(): Promise<ChainGap[]> {
    return [...this.#gaps];
  }

  async setGaps(gaps: ChainGap[]): Promise<void> {
    this.#gaps = [...gaps];
  }

  async holdOrphan(header: BlockHeader): Promise<void> {
    const held = this.orphans.get(header.parent_hash) ?? [];
    this.orphans.set(header.parent_hash, [...held, header]);
    this.#held.set(header.hash, header);
    this.stored.set(header.hash, header);
  }

  async orphansByParent(parentHash: string): Promise<BlockHeader[]> {
    return this.orphans.get(parentHash) ?? [];
  }

  async releaseOrphans(parentHash: string): Promise<void> {
    for (const orphan of this.orphans.get(parentHash) ?? []) this.#held.delete(orphan.hash);
    this.orphans.delete(parentHash);
  }

  async orphanCount(): Promise<number> {
    return this.#held.size;
  }

  async heldOrphans(): Promise<BlockHeader[]> {
    return [...this.#held.values()];
  }

  async dropOrphan(header: BlockHeader): Promise<void> {
    this.#held.delete(header.hash);
    const siblings = (this.orphans.get(header.parent_hash) ?? []).filter((o) => o.hash !== header.hash);
    if (siblings.length > 0) this.orphans.set(header.parent_hash, siblings);
    else this.orphans.delete(header.parent_hash);
  }

  /** The canonical chain from the first block to the tip, oldest first (gaps leave no entry). */
  canonicalChain(): string[] {
    const heights = [...this.canonical.keys()].sort((a, b) => a - b);
    return heights.map((height) => this.canonical.get(height) as string);
  }
}
