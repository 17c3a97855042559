import type { OutgoingPayload } from '../../core/ports/delivery-queue.js';

/**
 * Blocks kept per hook for rollbacks. A reorg deeper than this many of a hook's most recent sent
 * blocks cannot name the older blocks in that hook's rollback: the memory (and the journal
 * snapshot) would otherwise grow with every block a hook ever matched, forever. 10,000 blocks is
 * far beyond any reorg the Stacks chain has seen.
 */
export const SENT_BLOCKS_PER_HOOK = 10_000;

/**
 * Which blocks each hook was sent in a live apply (and with which transactions), for rollbacks.
 * A reverse index block → hooks makes a lookup cost the hooks of those blocks, not every hook.
 */
export class SentApplies {
  /** hook → block hash → tx indexes; a Map keeps insertion order, so the first key is the oldest. */
  private readonly byHook = new Map<string, Map<string, number[]>>();
  private readonly byBlock = new Map<string, Set<string>>();
  /** Told before a hook's blocks change (see `watch`). */
  private beforeChange: ((hook: string) => void) | undefined;

  constructor(private readonly limit = SENT_BLOCKS_PER_HOOK) {}

  /**
   * Have `listener` told before any hook's blocks change (undefined: no one), so a snapshot that
   * encodes them later can copy them first.
   */
  watch(listener: ((hook: string) => void) | undefined): void {
    this.beforeChange = listener;
  }

  /** Track a live payload: its rollback takes blocks back, its apply adds them. */
  track(payload: Pick<OutgoingPayload, 'hook_uuid' | 'apply' | 'rollback'>): void {
    const hook = payload.hook_uuid;
    this.beforeChange?.(hook);
    for (const ref of payload.rollback) this.forget(hook, ref.hash);
    if (payload.apply.length === 0) return;
    let blocks = this.byHook.get(hook);
    if (!blocks) this.byHook.set(hook, (blocks = new Map()));
    for (const ref of payload.apply) {
      blocks.delete(ref.hash);
      blocks.set(ref.hash, [...ref.tx_indexes]);
      let hooks = this.byBlock.get(ref.hash);
      if (!hooks) this.byBlock.set(ref.hash, (hooks = new Set()));
      hooks.add(hook);
    }
    while (blocks.size > this.limit) this.forget(hook, blocks.keys().next().value!);
  }

  /** hook → block hash → tx indexes, for those of `blockHashes` that were sent. */
  lookup(blockHashes: readonly string[]): Map<string, Map<string, number[]>> {
    const result = new Map<string, Map<string, number[]>>();
    for (const hash of blockHashes) {
      for (const hook of this.byBlock.get(hash) ?? []) {
        const txIndexes = this.byHook.get(hook)!.get(hash)!;
        let blocks = result.get(hook);
        if (!blocks) result.set(hook, (blocks = new Map()));
        blocks.set(hash, [...txIndexes]);
      }
    }
    return result;
  }

  /** Forget everything about a hook. */
  dropHook(hook: string): void {
    this.beforeChange?.(hook);
    for (const hash of this.byHook.get(hook)?.keys() ?? []) this.unindex(hook, hash);
    this.byHook.delete(hook);
  }

  /** The hooks that were sent blocks. */
  hooks(): string[] {
    return [...this.byHook.keys()];
  }

  /** One hook's blocks, oldest first, for a snapshot. */
  blocksOf(hook: string): [string, number[]][] {
    return [...(this.byHook.get(hook) ?? [])];
  }

  /** Restore one hook's blocks from a snapshot, oldest first. */
  restore(hook: string, blocks: [string, number[]][]): void {
    this.track({
      hook_uuid: hook,
      rollback: [],
      apply: blocks.map(([hash, tx_indexes]) => ({ hash, index: 0, tx_indexes })),
    });
  }

  private forget(hook: string, hash: string): void {
    const blocks = this.byHook.get(hook);
    if (!blocks?.delete(hash)) return;
    this.unindex(hook, hash);
    if (blocks.size === 0) this.byHook.delete(hook);
  }

  private unindex(hook: string, hash: string): void {
    const hooks = this.byBlock.get(hash);
    hooks?.delete(hook);
    if (hooks?.size === 0) this.byBlock.delete(hash);
  }
}
