import type { BlockHeader } from '../../core/chain/block-header.js';
import type { ChainGap } from '../../core/chain/chain-gap.js';
import type { ChainView } from '../../core/chain/chain-view.js';
import type { ArchiveCheckpoint } from './archive-state.js';
import type { CanonicalIndex } from './canonical-index.js';
import type { HashIndex, IndexSlot } from './hash-index.js';

/** A canonical entry of all zeros: no block at that height (the canonical file reads it as none). */
const NO_BLOCK = `0x${'0'.repeat(64)}`;

const headerOf = (slot: IndexSlot): BlockHeader => ({
  hash: slot.hash,
  height: slot.height,
  parent_hash: slot.parent_hash,
});

/**
 * The chain model's view of the archive: the index files as of the last checkpoint, overlaid with the
 * changes made since, which stay in memory until the next checkpoint writes them out together. The
 * overlay is what keeps the index files consistent through a crash: they only ever change as a whole
 * checkpoint, redone from the state file if interrupted.
 */
export class ArchiveChainView implements ChainView {
  /** Slots added or changed since the checkpoint. */
  readonly changedSlots = new Map<string, IndexSlot>();
  /** Canonical entries set since the checkpoint. */
  readonly changedCanonical = new Map<number, string>();
  readonly #index: HashIndex;
  readonly #canonical: CanonicalIndex;
  readonly #orphans = new Map<string, BlockHeader[]>();
  /** Held orphans by hash, in the order they were held. */
  readonly #held = new Map<string, BlockHeader>();
  #gaps: ChainGap[];
  #tip: BlockHeader | undefined;
  #dirty = false;

  constructor(index: HashIndex, canonical: CanonicalIndex, checkpoint: ArchiveCheckpoint) {
    this.#index = index;
    this.#canonical = canonical;
    this.#tip = checkpoint.tip ?? undefined;
    this.#gaps = checkpoint.gaps ?? [];
    for (const orphan of checkpoint.orphans) this.#hold(orphan);
  }

  /** True when something changed since the last checkpoint. */
  get dirty(): boolean {
    return this.#dirty;
  }

  /** The slot of any stored block, connected or not. */
  async slot(hash: string): Promise<IndexSlot | undefined> {
    return this.changedSlots.get(hash) ?? (await this.#index.get(hash));
  }

  /** Register a block just appended to the log; the chain model decides whether it connects. */
  addSlot(slot: IndexSlot): void {
    this.changedSlots.set(slot.hash, slot);
    this.#dirty = true;
  }

  /** Every orphan held, oldest first, for the state file. */
  orphans(): BlockHeader[] {
    return [...this.#held.values()];
  }

  /** Forget the overlay once a checkpoint has written it to the index files. */
  checkpointed(): void {
    this.changedSlots.clear();
    this.changedCanonical.clear();
    this.#dirty = false;
  }

  async header(hash: string): Promise<BlockHeader | undefined> {
    const slot = await this.slot(hash);
    return slot?.connected ? headerOf(slot) : undefined;
  }

  async storedHeader(hash: string): Promise<BlockHeader | undefined> {
    const slot = await this.slot(hash);
    return slot === undefined ? undefined : headerOf(slot);
  }

  async canonicalHashAt(height: number): Promise<string | undefined> {
    // Entries above the tip may be left from before a crash; the tip bounds what is canonical.
    if (this.#tip === undefined || height > this.#tip.height) return undefined;
    const hash = this.changedCanonical.get(height) ?? (await this.#canonical.get(height));
    return hash === NO_BLOCK ? undefined : hash;
  }

  /** The canonical hashes from `from` (at least 0) up to `to` or the tip, in one read of the index file. */
  async canonicalHashesIn(from: number, to: number): Promise<(string | undefined)[]> {
    const last = Math.min(to, this.#tip?.height ?? -1);
    const hashes = last < from ? [] : await this.#canonical.getRange(from, last);
    for (let height = from; height <= last; height++) {
      const changed = this.changedCanonical.get(height);
      if (changed !== undefined) hashes[height - from] = changed;
      if (hashes[height - from] === NO_BLOCK) hashes[height - from] = undefined;
    }
    return hashes;
  }

  async tip(): Promise<BlockHeader | undefined> {
    return this.#tip;
  }

  /** The tip, the gaps (a copy) and how many orphans are held, read at once. */
  current(): { tip: BlockHeader | undefined; gaps: ChainGap[]; heldOrphans: number } {
    return { tip: this.#tip, gaps: [...this.#gaps], heldOrphans: this.#held.size };
  }

  async recordHeader(header: BlockHeader): Promise<void> {
    const slot = await this.slot(header.hash);
    if (slot === undefined) throw new Error(`block ${header.hash} is connected but was never stored`);
    this.changedSlots.set(header.hash, { ...slot, connected: true });
    this.#dirty = true;
  }

  async setCanonicalHashAt(height: number, hash: string): Promise<void> {
    this.changedCanonical.set(height, hash);
    this.#dirty = true;
  }

  async clearCanonicalAt(height: number): Promise<void> {
    this.changedCanonical.set(height, NO_BLOCK);
    this.#dirty = true;
  }

  async setTip(header: BlockHeader): Promise<void> {
    this.#tip = header;
    this.#dirty = true;
  }

  async gaps(): Promise<ChainGap[]> {
    return [...this.#gaps];
  }

  async setGaps(gaps: ChainGap[]): Promise<void> {
    this.#gaps = [...gaps];
    this.#dirty = true;
  }

  async holdOrphan(header: BlockHeader): Promise<void> {
    this.#hold(header);
    this.#dirty = true;
  }

  async orphansByParent(parentHash: string): Promise<BlockHeader[]> {
    return this.#orphans.get(parentHash) ?? [];
  }

  async releaseOrphans(parentHash: string): Promise<void> {
    for (const orphan of this.#orphans.get(parentHash) ?? []) this.#held.delete(orphan.hash);
    this.#orphans.delete(parentHash);
    this.#dirty = true;
  }

  async orphanCount(): Promise<number> {
    return this.#held.size;
  }

  async heldOrphans(): Promise<BlockHeader[]> {
    return [...this.#held.values()];
  }

  async dropOrphan(header: BlockHeader): Promise<void> {
    this.#held.delete(header.hash);
    const siblings = (this.#orphans.get(header.parent_hash) ?? []).filter((o) => o.hash !== header.hash);
    if (siblings.length > 0) this.#orphans.set(header.parent_hash, siblings);
    else this.#orphans.delete(header.parent_hash);
    this.#dirty = true;
  }

  #hold(header: BlockHeader): void {
    const held = this.#orphans.get(header.parent_hash) ?? [];
    held.push(header);
    this.#orphans.set(header.parent_hash, held);
    this.#held.set(header.hash, header);
  }
}
