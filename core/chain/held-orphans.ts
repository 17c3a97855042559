import type { ChainNote } from './chain-update.js';
import type { ChainView } from './chain-view.js';

/** Orphans held at most by default; beyond it the oldest is dropped. */
export const MAX_HELD_ORPHANS = 1_000;
/** By default an orphan more than this many heights below the tip is dropped: the chain has long moved past it. */
export const MAX_ORPHAN_DEPTH = 1_000;

/**
 * Keep the held orphans within bounds: drop those more than `maxDepth` heights below the tip (the
 * age of a block in a chain is how far the chain has moved past it), then the oldest beyond
 * `maxCount`. A dropped orphan stays stored but is never connected.
 */
export async function boundHeldOrphans(
  view: ChainView,
  limits: { maxCount: number; maxDepth: number },
  notes: ChainNote[],
): Promise<void> {
  if ((await view.orphanCount()) === 0) return;
  const tip = await view.tip();
  const held = await view.heldOrphans();
  const kept = [];
  for (const orphan of held) {
    if (tip !== undefined && orphan.height < tip.height - limits.maxDepth) {
      await view.dropOrphan(orphan);
      notes.push({ kind: 'orphan_dropped', block: orphan, reason: 'too_deep' });
    } else {
      kept.push(orphan);
    }
  }
  for (const orphan of kept.slice(0, Math.max(kept.length - limits.maxCount, 0))) {
    await view.dropOrphan(orphan);
    notes.push({ kind: 'orphan_dropped', block: orphan, reason: 'too_many' });
  }
}
