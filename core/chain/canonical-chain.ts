import { invalidInput } from '../hooks/errors.js';
import type { BlockHeader } from './block-header.js';
import { normalizeHeader } from './block-identity.js';
import { noChainChange } from './chain-update.js';
import type { ChainUpdate } from './chain-update.js';
import type { ChainView } from './chain-view.js';

/*
 * Fork choice: the canonical chain is the longest one, and a branch that only ties the tip does not
 * take over (the block seen first keeps the height). The real mainnet forks in
 * `mainnet-reorg-scenario1.tsv` need exactly this: the node sends two blocks at height 30 and the
 * later blocks build on the second, so the switch happens when block 31 arrives (rolling back the
 * first 30); at height 45 the later blocks build on the first sibling, so the second is stored and
 * never applied, where switching on a same-height sibling would emit a spurious rollback and
 * re-apply. Hiro's stacks-blockchain-api applies the same rule to these (pre-Nakamoto) blocks: a
 * block is canonical only when it is higher than the tip. (It treats Nakamoto blocks differently,
 * as canonical on arrival, because signers approved them; see docs/architecture.md.)
 */
function takesOver(candidate: BlockHeader, tip: BlockHeader | undefined): boolean {
  return tip === undefined || candidate.height > tip.height;
}

async function isKnown(view: ChainView, block: BlockHeader): Promise<boolean> {
  if ((await view.header(block.hash)) !== undefined) return true;
  const held = await view.orphansByParent(block.parent_hash);
  return held.some((orphan) => orphan.hash === block.hash);
}

function linksTo(parent: BlockHeader, child: BlockHeader): boolean {
  return child.height === parent.height + 1;
}

/**
 * Refuse a block whose parent is known but is not exactly one height below it: the canonical index
 * keeps one block per height, so a gap or a repeat would corrupt it. Storage calls this before it
 * writes a block; `applyBlockToChain` calls it too.
 */
export async function checkBlockLink(view: ChainView, header: BlockHeader): Promise<void> {
  const parent = await view.header(header.parent_hash);
  if (parent !== undefined && !linksTo(parent, header)) {
    throw invalidInput([
      {
        field: 'block_identifier.index',
        message: `must be ${parent.height + 1}, one above its parent ${parent.hash} at ${parent.height}`,
      },
    ]);
  }
}

/**
 * Connect `block` and, after it, every orphan held below it (breadth first, each parent's orphans in
 * the order they arrived). Returns the best tip among the old tip and everything connected.
 * An orphan whose height does not follow its parent's is dropped here: it can never be connected.
 */
async function connectWithHeldDescendants(
  view: ChainView,
  block: BlockHeader,
  tip: BlockHeader | undefined,
): Promise<BlockHeader | undefined> {
  let best = tip;
  const queue = [block];
  for (let i = 0; i < queue.length; i++) {
    const next = queue[i];
    await view.recordHeader(next);
    if (takesOver(next, best)) best = next;
    const held = await view.orphansByParent(next.hash);
    if (held.length === 0) continue;
    await view.releaseOrphans(next.hash);
    for (const child of held) if (linksTo(next, child)) queue.push(child);
  }
  return best;
}

/** Move the canonical chain from `oldTip` to `newTip` and return exactly what left and what joined. */
async function switchTip(
  view: ChainView,
  oldTip: BlockHeader | undefined,
  newTip: BlockHeader,
): Promise<ChainUpdate> {
  // Walk the new branch down until it meets the current canonical chain (the common ancestor).
  const joining: BlockHeader[] = [];
  let cursor: BlockHeader | undefined = newTip;
  while (cursor !== undefined && (await view.canonicalHashAt(cursor.height)) !== cursor.hash) {
    joining.push(cursor);
    cursor = await view.header(cursor.parent_hash);
  }
  if (cursor === undefined && oldTip !== undefined) {
    throw new Error(`chain view is inconsistent: ${newTip.hash} does not descend from the canonical chain`);
  }
  const rollback: BlockHeader[] = [];
  const ancestorHeight = cursor === undefined ? -1 : cursor.height;
  for (let height = oldTip?.height ?? -1; height > ancestorHeight; height--) {
    const hash = await view.canonicalHashAt(height);
    const leaving = hash === undefined ? undefined : await view.header(hash);
    if (leaving === undefined) throw new Error(`chain view is inconsistent: no canonical block at ${height}`);
    rollback.push(leaving);
  }
  for (const block of joining) await view.setCanonicalHashAt(block.height, block.hash);
  await view.setTip(newTip);
  return { rollback, apply: joining.reverse() };
}

/**
 * Add one block to the tree and move the canonical chain if it must. A duplicate is a no-op; a block
 * whose parent is unknown is held until the parent arrives, then connected with its own held
 * descendants in one combined update; a branch that becomes longer than the tip takes over however
 * deep the common ancestor lies.
 */
export async function applyBlockToChain(view: ChainView, header: BlockHeader): Promise<ChainUpdate> {
  const block = normalizeHeader(header);
  if (await isKnown(view, block)) return noChainChange();
  const oldTip = await view.tip();
  // The first block ever is the root of the tree: nothing before it will be connected.
  if (oldTip !== undefined) {
    if ((await view.header(block.parent_hash)) === undefined) {
      await view.holdOrphan(block);
      return noChainChange();
    }
    await checkBlockLink(view, block);
  }
  const best = await connectWithHeldDescendants(view, block, oldTip);
  if (best === undefined || best === oldTip) return noChainChange();
  return switchTip(view, oldTip, best);
}
