/** A block sent to a hook: its hash and the transactions (indexes) the hook was sent. */
export type SentEntry = [string, readonly number[]];

/**
 * What the view keeps of one hook: how many blocks it had at the instant and, oldest first, those
 * of them that went since (the hook's oldest, let go past the limit); or, once anything else
 * changed its blocks (a rollback, a block sent again, the hook dropped), a copy of them as they were.
 */
type Frozen = { count: number; evicted: SentEntry[]; copy?: SentEntry[] };

/**
 * The blocks sent to each hook as they were at one instant, for a snapshot that encodes them while
 * the outbox keeps running. A hook that is only sent new blocks keeps its blocks at the instant as
 * the first ones of its list, less the oldest that went past the limit: the view keeps a count and
 * those that went, and reads the rest from the live list when the hook's turn comes; it copies a
 * hook's blocks only before another change. So it holds about the blocks sent while it is open,
 * not a copy of every hook's blocks.
 */
export class SentInstant {
  private readonly frozen = new Map<string, Frozen>();

  constructor(
    /** How many blocks each hook has now. */
    counts: Iterable<[string, number]>,
    /** A hook's blocks as they are when read, oldest first (the live list; never changed here). */
    private readonly live: (hook: string) => Iterable<SentEntry> | undefined,
  ) {
    for (const [hook, count] of counts) this.frozen.set(hook, { count, evicted: [] });
  }

  /** The hooks that had blocks at the instant, whose blocks are still to be taken. */
  hooks(): string[] {
    return [...this.frozen.keys()];
  }

  /** A hook's blocks as they were at the instant, oldest first; the view lets go of the hook. */
  take(hook: string): SentEntry[] {
    const blocks = this.at(hook);
    this.frozen.delete(hook);
    return blocks;
  }

  /** How many blocks the view holds copies of now. */
  get held(): number {
    let held = 0;
    for (const { evicted, copy } of this.frozen.values()) held += evicted.length + (copy?.length ?? 0);
    return held;
  }

  /** The hook's oldest block is about to go past the limit. */
  evicting(hook: string, block: SentEntry): void {
    const frozen = this.frozen.get(hook);
    // Once the blocks of the instant have all gone, the next ones to go came after it.
    if (frozen && !frozen.copy && frozen.evicted.length < frozen.count) frozen.evicted.push(block);
  }

  /** The hook's blocks are about to change otherwise than by a new block or the oldest going. */
  changing(hook: string): void {
    const frozen = this.frozen.get(hook);
    if (frozen && !frozen.copy)
      this.frozen.set(hook, { count: frozen.count, evicted: [], copy: this.at(hook) });
  }

  private at(hook: string): SentEntry[] {
    const frozen = this.frozen.get(hook);
    if (!frozen) return [];
    if (frozen.copy) return frozen.copy;
    // The live list starts with the blocks of the instant that are left, then those sent since.
    const blocks = [...frozen.evicted];
    for (const block of this.live(hook) ?? []) {
      if (blocks.length === frozen.count) break;
      blocks.push(block);
    }
    return blocks;
  }
}
