import type { OutgoingPayload } from '../../core/ports/delivery-queue.js';
import type { Locator } from './payload-segments.js';
import type { SentOnDisk } from './sent-on-disk.js';
import { SentInstant } from './sent-instant.js';

/**
 * Blocks kept per hook for rollbacks. A reorg deeper than this many of a hook's most recent sent
 * blocks cannot name the older blocks in that hook's rollback: the memory (and the journal
 * snapshot) would otherwise grow with every block a hook ever matched, forever. 10,000 blocks is
 * far beyond any reorg the Stacks chain has seen.
 */
export const SENT_BLOCKS_PER_HOOK = 10_000;

/**
 * Blocks kept in memory when older ones go to disk: a rollback of a recent block (every reorg
 * the chain has seen) costs no I/O, and memory does not grow with the blocks the hooks matched.
 */
export const SENT_BLOCKS_IN_MEMORY = 64;

/** A block's records on disk changed: `loc` added (it left memory), or instead of the others (`replace`). */
export type SentMove = { hash: string; loc: Locator | null; replace: boolean };

/** Distinct transaction index lists kept for sharing; past this, the oldest is no longer shared. */
const SHARED_LISTS = 4_096;

/** A block's entry in the reverse index: its hash string, which every hook's entry shares, and its hooks. */
type SentBlock = { hash: string; hooks: Set<string> };

/**
 * Which blocks each hook was sent in a live apply (and with which transactions), for rollbacks.
 * A reverse index block → hooks makes a lookup cost the hooks of those blocks, not every hook.
 * Entries are kept until a hook has more than the limit, so they are what memory holds per hook
 * and block: the many hooks sent one block share its hash string and, when they were sent the
 * same transactions, one frozen index list (a snapshot restores each hook on its own, so sharing
 * is by content, not by the order payloads came in). With a store on disk, only the newest
 * `SENT_BLOCKS_IN_MEMORY` blocks stay in memory: `spill` writes the older ones' records and a
 * rollback of a block on disk is written as its record without the hook, so a journal names
 * each move and a replay makes it without writing (`movedToDisk`).
 */
export class SentApplies {
  /** hook → block hash → tx indexes; a Map keeps insertion order, so the first key is the oldest. */
  private readonly byHook = new Map<string, Map<string, readonly number[]>>();
  private readonly byBlock = new Map<string, SentBlock>();
  /** Index lists by their text, so equal lists are one array; the oldest go past SHARED_LISTS. */
  private readonly lists = new Map<string, readonly number[]>();
  /** The one-transaction lists, by their index (below SHARED_LISTS). */
  private readonly singles: (readonly number[] | undefined)[] = [];
  /** The view a snapshot under way reads, told before a hook's blocks change (see `freeze`). */
  private frozen: SentInstant | undefined;
  /** block hash → hooks rolled back from it while its records are on disk, to be written by `spill`. */
  private readonly diskForgets = new Map<string, Set<string>>();

  constructor(
    private readonly limit = SENT_BLOCKS_PER_HOOK,
    private readonly disk?: SentOnDisk,
    private readonly inMemory = SENT_BLOCKS_IN_MEMORY,
  ) {}

  /**
   * Every hook's blocks as they are now, to be read later while they keep changing (for a snapshot
   * encoded a slice at a time); until `thaw`, the view is told of each change before it is made.
   */
  freeze(): SentInstant {
    const counts = [...this.byHook].map(([hook, blocks]): [string, number] => [hook, blocks.size]);
    this.frozen = new SentInstant(counts, (hook) => this.byHook.get(hook)?.entries());
    return this.frozen;
  }

  /** Stop telling the view taken by `freeze` of changes (its snapshot is written, or given up). */
  thaw(): void {
    this.frozen = undefined;
  }

  /** How many blocks are held in memory (those on disk aside). */
  get blocksInMemory(): number {
    return this.byBlock.size;
  }

  /** Track a live payload: its rollback takes blocks back, its apply adds them. */
  track(payload: Pick<OutgoingPayload, 'hook_uuid' | 'apply' | 'rollback'>): void {
    const hook = payload.hook_uuid;
    for (const ref of payload.rollback) {
      if (this.byHook.get(hook)?.has(ref.hash)) this.frozen?.changing(hook);
      this.forget(hook, ref.hash);
      if (this.disk?.has(ref.hash)) {
        const hooks = this.diskForgets.get(ref.hash) ?? new Set<string>();
        this.diskForgets.set(ref.hash, hooks.add(hook));
      }
    }
    if (payload.apply.length === 0) return;
    const blocks = this.sentTo(hook);
    for (const ref of payload.apply) this.addBlock(hook, blocks, ref.hash, ref.tx_indexes);
    this.trim(hook, blocks);
  }

  /** hook → block hash → tx indexes, for those of `blockHashes` that were sent. */
  lookup(blockHashes: readonly string[]): Map<string, Map<string, number[]>> {
    const result = new Map<string, Map<string, number[]>>();
    for (const hash of blockHashes) {
      for (const hook of this.byBlock.get(hash)?.hooks ?? []) {
        const txIndexes = this.byHook.get(hook)!.get(hash)!;
        let blocks = result.get(hook);
        if (!blocks) result.set(hook, (blocks = new Map()));
        blocks.set(hash, [...txIndexes]);
      }
      // Sent again since it went to disk: memory has the newer send.
      if (!this.disk?.has(hash)) continue;
      const forgotten = this.diskForgets.get(hash);
      for (const [hook, txIndexes] of this.disk.read(hash)) {
        if (forgotten?.has(hook) || result.get(hook)?.has(hash)) continue;
        let blocks = result.get(hook);
        if (!blocks) result.set(hook, (blocks = new Map()));
        blocks.set(hash, [...txIndexes]);
      }
    }
    return result;
  }

  /**
   * Write what is to go to disk: the records of blocks rolled back from a hook while on disk,
   * rewritten without it, and the blocks past the newest `SENT_BLOCKS_IN_MEMORY`, which leave
   * memory. Returns the moves, in order, for the journal to name.
   */
  spill(): SentMove[] {
    if (!this.disk) return [];
    const moves: SentMove[] = [];
    for (const [hash, forgotten] of this.diskForgets) {
      const hooks = [...this.disk.read(hash)].filter(([hook]) => !forgotten.has(hook));
      moves.push({ hash, loc: hooks.length > 0 ? this.disk.put(hooks) : null, replace: true });
    }
    let over = this.byBlock.size - this.inMemory;
    for (const hash of this.byBlock.keys()) {
      if (over-- <= 0) break;
      const block = this.byBlock.get(hash)!;
      const hooks = [...block.hooks].map((hook): [string, readonly number[]] => [
        hook,
        this.byHook.get(hook)!.get(hash)!,
      ]);
      moves.push({ hash, loc: this.disk.put(hooks), replace: false });
    }
    for (const move of moves) this.movedToDisk(move.hash, move.loc, move.replace);
    return moves;
  }

  /** A block's records on disk changed as `spill` did it (a replay names the move instead of writing). */
  movedToDisk(hash: string, loc: Locator | null, replace: boolean): void {
    if (replace) this.diskForgets.delete(hash);
    else this.leaveMemory(hash);
    this.disk?.moved(hash, loc, replace);
  }

  /** Forget everything about a hook. */
  dropHook(hook: string): void {
    this.frozen?.changing(hook);
    for (const hash of this.byHook.get(hook)?.keys() ?? []) this.unindex(hook, hash);
    this.byHook.delete(hook);
  }

  /** One hook's blocks, oldest first. */
  blocksOf(hook: string): [string, readonly number[]][] {
    return [...(this.byHook.get(hook) ?? [])];
  }

  /** Restore one hook's blocks from a snapshot, oldest first. */
  restore(hook: string, sent: [string, readonly number[]][]): void {
    if (sent.length === 0) return;
    const blocks = this.sentTo(hook);
    for (const [hash, indexes] of sent) this.addBlock(hook, blocks, hash, indexes);
    this.trim(hook, blocks);
  }

  // The hook's blocks, a new map when it has none.
  private sentTo(hook: string): Map<string, readonly number[]> {
    let blocks = this.byHook.get(hook);
    if (!blocks) this.byHook.set(hook, (blocks = new Map()));
    return blocks;
  }

  // Add a block sent to `hook` (`blocks`, its map), after those it was sent before.
  private addBlock(
    hook: string,
    blocks: Map<string, readonly number[]>,
    hash: string,
    indexes: readonly number[],
  ): void {
    let block = this.byBlock.get(hash);
    if (!block) this.byBlock.set(hash, (block = { hash, hooks: new Set() }));
    block.hooks.add(hook);
    // A block sent again moves to the end; a new one is appended, which a frozen view reads past.
    if (blocks.has(block.hash)) {
      this.frozen?.changing(hook);
      blocks.delete(block.hash);
    }
    blocks.set(block.hash, this.shared(indexes));
  }

  // Let the hook's oldest blocks go past the limit.
  private trim(hook: string, blocks: Map<string, readonly number[]>): void {
    while (blocks.size > this.limit) {
      const oldest = blocks.entries().next().value!;
      this.frozen?.evicting(hook, oldest);
      this.forget(hook, oldest[0]);
    }
  }

  // Every hook's entry of the block goes; a snapshot under way keeps it in its view.
  private leaveMemory(hash: string): void {
    for (const hook of this.byBlock.get(hash)?.hooks ?? []) {
      const blocks = this.byHook.get(hook)!;
      const indexes = blocks.get(hash)!;
      if (blocks.keys().next().value === hash) this.frozen?.evicting(hook, [hash, indexes]);
      else this.frozen?.changing(hook);
      blocks.delete(hash);
      if (blocks.size === 0) this.byHook.delete(hook);
    }
    this.byBlock.delete(hash);
  }

  private forget(hook: string, hash: string): void {
    const blocks = this.byHook.get(hook);
    if (!blocks?.delete(hash)) return;
    this.unindex(hook, hash);
    if (blocks.size === 0) this.byHook.delete(hook);
  }

  private unindex(hook: string, hash: string): void {
    const block = this.byBlock.get(hash);
    block?.hooks.delete(hook);
    if (block?.hooks.size === 0) this.byBlock.delete(hash);
  }

  // The one frozen list equal to `indexes`: a thousand hooks sent one block's transactions hold one array.
  private shared(indexes: readonly number[]): readonly number[] {
    // Most payloads were sent one transaction of a block: its list is found without a key.
    const index = indexes[0];
    if (indexes.length === 1 && Number.isInteger(index) && index >= 0 && index < SHARED_LISTS)
      return (this.singles[index] ??= Object.freeze([index]));
    const key = indexes.join(',');
    let list = this.lists.get(key);
    if (list) return list;
    this.lists.set(key, (list = Object.freeze([...indexes])));
    if (this.lists.size > SHARED_LISTS) this.lists.delete(this.lists.keys().next().value!);
    return list;
  }
}
