import type { Locator, PayloadSegments } from './payload-segments.js';

/**
 * Blocks kept on disk for rollbacks: the most recent this many that left memory. A reorg deeper
 * than that cannot name the older blocks in its rollbacks (10,000 blocks is far beyond any reorg
 * the Stacks chain has seen); the disk would otherwise grow with every block a hook ever matched.
 */
export const SENT_BLOCKS_ON_DISK = 10_000;

/** The hooks a block was sent to, each with the transactions (indexes) it was sent. */
export type SentHooks = [string, readonly number[]][];

/**
 * The sent blocks that left memory: one record per block as it left (its hooks and their
 * transactions, JSON in segments of their own, `sent/`), found by the block's hash. Memory keeps
 * only where the records are, for the newest `limit` blocks (about 100 bytes a block, whatever
 * the hooks), so a rollback of an old block reads its records and one of a recent block costs no
 * I/O. Synchronous, as the other stores are, so the state machine stays synchronous.
 */
export class SentOnDisk {
  /** block hash → its records, oldest first; a Map keeps insertion order, so the first key is the oldest. */
  private readonly index = new Map<string, Locator[]>();

  constructor(
    private readonly segments: PayloadSegments,
    private readonly limit = SENT_BLOCKS_ON_DISK,
  ) {}

  /** How many blocks have records. */
  get size(): number {
    return this.index.size;
  }

  /** Whether the block has records. */
  has(hash: string): boolean {
    return this.index.has(hash);
  }

  /** Place a record of the block's hooks (written by the next flush, before the journal that names it). */
  put(hooks: SentHooks): Locator {
    return this.segments.append(JSON.stringify(hooks));
  }

  /**
   * The block's records are now `loc` added after the others (`replace`: instead of them; null:
   * none). The block becomes the newest; past the limit the oldest go.
   */
  moved(hash: string, loc: Locator | null, replace: boolean): void {
    const locs = this.index.get(hash) ?? [];
    this.index.delete(hash);
    if (replace) {
      for (const old of locs) this.segments.release(old);
      locs.length = 0;
    }
    if (loc) {
      this.segments.retain(loc);
      locs.push(loc);
    }
    if (locs.length > 0) this.index.set(hash, locs);
    while (this.index.size > this.limit) this.drop(this.index.keys().next().value!);
  }

  /** The block's hooks as its records hold them, later records first for a hook in several. */
  read(hash: string): Map<string, readonly number[]> {
    const hooks = new Map<string, readonly number[]>();
    for (const loc of this.index.get(hash) ?? [])
      for (const [hook, indexes] of JSON.parse(this.segments.read(loc).toString('utf8')) as SentHooks)
        hooks.set(hook, indexes);
    return hooks;
  }

  /** Every block's records, oldest block first, as they are now (a copy, for a snapshot). */
  snapshot(): [string, Locator[]][] {
    return [...this.index].map(([hash, locs]) => [hash, [...locs]]);
  }

  /** Snapshot restore: a block's records, after the blocks restored before it. */
  restore(hash: string, locs: readonly Locator[]): void {
    for (const loc of locs) this.moved(hash, loc, false);
  }

  private drop(hash: string): void {
    for (const loc of this.index.get(hash) ?? []) this.segments.release(loc);
    this.index.delete(hash);
  }
}
