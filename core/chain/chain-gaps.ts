import type { BlockHeader } from './block-header.js';
import { gapAt, gapAwaiting, sortGaps, type ChainGap } from './chain-gap.js';
import type { ChainNote, ChainUpdate } from './chain-update.js';
import type { ChainView } from './chain-view.js';

/** Who is moving the chain and when, for the gaps and notes it leaves. */
export type ChainStep = { arrived: string; at: number; notes: ChainNote[] };

/**
 * Where a hole whose highest kept height is `height` starts, and the gap it merges with: above the
 * tip nothing is canonical, so the hole reaches down to the tip; a gap missing that height extends
 * it down to the gap's own start; otherwise it starts just above (a canonical block, or the start of
 * the chain's history).
 */
export function holeBelow(
  gaps: readonly ChainGap[],
  height: number,
  tipHeight: number,
): { from: number; merges?: ChainGap } {
  const at = Math.min(height, tipHeight);
  if (at < 0) return { from: 0 };
  const gap = gapAt(gaps, at);
  if (gap !== undefined) return { from: gap.from_height, merges: gap };
  return { from: at + 1 };
}

/**
 * The canonical blocks above `floor` up to `top` (inclusive), newest first, skipping the gaps. Stops
 * below the chain's first block, where nothing was ever canonical.
 */
export async function canonicalAbove(
  view: ChainView,
  gaps: readonly ChainGap[],
  floor: number,
  top: number,
): Promise<BlockHeader[]> {
  const blocks: BlockHeader[] = [];
  for (let height = top; height > floor;) {
    const gap = gapAt(gaps, height);
    if (gap !== undefined) {
      height = gap.from_height - 1;
      continue;
    }
    const hash = await view.canonicalHashAt(height);
    if (hash === undefined) break;
    const block = await view.header(hash);
    if (block === undefined)
      throw new Error(`chain view is inconsistent: canonical ${hash} is not connected`);
    blocks.push(block);
    height--;
  }
  return blocks;
}

/** The blocks from `from` down to (not including) the first canonical one, and that one if reached. */
export async function branchDownToCanonical(
  view: ChainView,
  from: BlockHeader,
): Promise<{ branch: BlockHeader[]; ancestor?: BlockHeader }> {
  const branch: BlockHeader[] = [];
  let cursor: BlockHeader | undefined = from;
  // Every connected link descends one height (checkBlockPlacement), so this walk ends.
  while (cursor !== undefined && (await view.canonicalHashAt(cursor.height)) !== cursor.hash) {
    branch.push(cursor);
    cursor = await view.header(cursor.parent_hash);
  }
  return { branch, ancestor: cursor };
}

/**
 * Fill gaps from the connected blocks some gap waits for (`fillers`, lowest first): each filler and
 * its ancestors down to the canonical chain become canonical without an apply (filling delivers
 * nothing), canonical blocks they displace are rolled back, and the gap closes, or narrows to what
 * is still missing below the filled run when its lowest block's parent is missing too. The tip stays.
 */
export async function fillGaps(
  view: ChainView,
  fillers: BlockHeader[],
  step: ChainStep,
): Promise<ChainUpdate> {
  const rollback: BlockHeader[] = [];
  const tip = await view.tip();
  for (const filler of fillers) {
    const gaps = await view.gaps();
    const gap = gapAwaiting(gaps, filler.hash);
    if (gap === undefined || tip === undefined) continue;
    const { branch, ancestor } = await branchDownToCanonical(view, filler);
    const bottom = branch[branch.length - 1];
    let kept: number;
    let narrowed: ChainGap | undefined;
    let merges: ChainGap | undefined;
    if (ancestor !== undefined) {
      kept = ancestor.height;
    } else {
      // The filled run's lowest block names a parent never seen: the gap now ends below it.
      kept = bottom.height - 2;
      const hole = holeBelow(gaps, kept, tip.height);
      merges = hole.merges;
      narrowed = {
        from_height: hole.from,
        to_height: bottom.height - 1,
        above: bottom,
        opened_by: gap.opened_by,
        opened_at: gap.opened_at,
      };
    }
    const displaced = await canonicalAbove(view, gaps, kept, filler.height);
    rollback.push(...displaced);
    for (const block of branch) await view.setCanonicalHashAt(block.height, block.hash);
    // The parent height of the run's lowest block is missing now, whatever was canonical there.
    for (const left of displaced) if (left.height < bottom.height) await view.clearCanonicalAt(left.height);
    const overlaps = (g: ChainGap) => g === merges || (g.to_height > kept && g.from_height <= filler.height);
    const remaining = gaps.filter((g) => !overlaps(g));
    for (const closed of gaps.filter(overlaps)) {
      if (closed === gap && narrowed !== undefined) {
        step.notes.push({ kind: 'gap_narrowed', gap: narrowed, previous: gap, by: step.arrived });
      } else {
        step.notes.push({
          kind: 'gap_closed',
          gap: closed,
          how: closed === merges ? 'merged' : 'filled',
          by: step.arrived,
        });
      }
    }
    if (narrowed !== undefined) remaining.push(narrowed);
    await view.setGaps(sortGaps(remaining));
  }
  return { rollback: rollback.sort((a, b) => b.height - a.height), apply: [] };
}
