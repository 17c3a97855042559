import { expect } from 'chai';
import type { BlockHeader } from '../../../core/chain/block-header.js';
import { applyBlockToChain } from '../../../core/chain/canonical-chain.js';
import type { ChainNote } from '../../../core/chain/chain-update.js';
import { MemoryChainView } from '../../../core/chain/memory-chain-view.js';
import { ChainBuilder, headerOf } from '../../support/block-builder.js';

function grow(chain: ChainBuilder, count: number): BlockHeader[] {
  return Array.from({ length: count }, () => headerOf(chain.next()));
}

const hashes = (headers: BlockHeader[]): string[] => headers.map((header) => header.hash);
const kinds = (notes: ChainNote[] | undefined): string[] => (notes ?? []).map((note) => note.kind);

describe('applyBlockToChain with gaps', () => {
  let view: MemoryChainView;
  let chain: ChainBuilder;

  beforeEach(() => {
    view = new MemoryChainView();
    chain = new ChainBuilder();
  });

  async function applyAll(headers: BlockHeader[], at = 0): Promise<void> {
    for (const header of headers) await applyBlockToChain(view, header, { at });
  }

  /** Blocks 1–50 built, 1–10 applied, then 50 applied: the gap 11–49. */
  async function gapAfterTen(): Promise<BlockHeader[]> {
    const blocks = grow(chain, 50);
    await applyAll(blocks.slice(0, 10));
    await applyBlockToChain(view, blocks[49], { at: 1234 });
    return blocks;
  }

  it('connects a block above the tip whose parent is unknown as the new tip and records the gap', async () => {
    const blocks = grow(chain, 50);
    await applyAll(blocks.slice(0, 10));
    const update = await applyBlockToChain(view, blocks[49], { at: 1234 });
    const gap = {
      from_height: 11,
      to_height: 49,
      above: blocks[49],
      opened_by: blocks[49].hash,
      opened_at: 1234,
    };
    expect(update).to.deep.equal({ rollback: [], apply: [blocks[49]], notes: [{ kind: 'gap_opened', gap }] });
    expect(await view.tip()).to.deep.equal(blocks[49]);
    expect(await view.gaps()).to.deep.equal([gap]);
  });

  it('rolls back the genesis body when the next block does not link to it, the missing parent as the gap', async () => {
    const [zero] = grow(new ChainBuilder({ label: 'genesis', startHeight: 0 }), 1);
    const [next] = grow(new ChainBuilder({ label: 'elsewhere', startHeight: 1 }), 1);
    await applyBlockToChain(view, zero);
    const update = await applyBlockToChain(view, next);
    expect(update.rollback).to.deep.equal([zero]);
    expect(update.apply).to.deep.equal([next]);
    expect(await view.gaps()).to.deep.equal([
      { from_height: 0, to_height: 0, above: next, opened_by: next.hash, opened_at: 0 },
    ]);
  });

  it('extends the block above a gap like any tip', async () => {
    const blocks = grow(chain, 51);
    await applyAll(blocks.slice(0, 10));
    await applyBlockToChain(view, blocks[49]);
    expect(await applyBlockToChain(view, blocks[50])).to.deep.equal({ rollback: [], apply: [blocks[50]] });
    expect((await view.gaps()).map((gap) => [gap.from_height, gap.to_height])).to.deep.equal([[11, 49]]);
  });

  it('fills a gap from below without moving the tip, closing it when the run reaches the block above', async () => {
    const blocks = await gapAfterTen();
    for (const block of blocks.slice(10, 48)) {
      expect(await applyBlockToChain(view, block)).to.deep.equal({ rollback: [], apply: [] });
    }
    expect(await view.tip()).to.deep.equal(blocks[49]);
    const last = await applyBlockToChain(view, blocks[48]);
    expect(last.rollback).to.deep.equal([]);
    expect(last.apply).to.deep.equal([]);
    expect(kinds(last.notes)).to.deep.equal(['gap_closed']);
    expect(last.notes?.[0]).to.include({ how: 'filled', by: blocks[48].hash });
    expect(view.canonicalChain()).to.deep.equal(hashes(blocks));
    expect(await view.gaps()).to.deep.equal([]);
  });

  it('fills a gap from the top, narrowing it block by block until it closes', async () => {
    const blocks = await gapAfterTen();
    const first = await applyBlockToChain(view, blocks[48]);
    expect(first).to.deep.equal({
      rollback: [],
      apply: [],
      notes: [
        {
          kind: 'gap_narrowed',
          gap: {
            from_height: 11,
            to_height: 48,
            above: blocks[48],
            opened_by: blocks[49].hash,
            opened_at: 1234,
          },
          previous: {
            from_height: 11,
            to_height: 49,
            above: blocks[49],
            opened_by: blocks[49].hash,
            opened_at: 1234,
          },
          by: blocks[48].hash,
        },
      ],
    });
    for (const block of blocks.slice(10, 48).reverse()) await applyBlockToChain(view, block);
    expect(view.canonicalChain()).to.deep.equal(hashes(blocks));
    expect(await view.gaps()).to.deep.equal([]);
    expect(await view.tip()).to.deep.equal(blocks[49]);
  });

  it('fills a gap delivered in shuffled order, holding what arrives before its parent', async () => {
    const blocks = await gapAfterTen();
    const missing = blocks.slice(10, 49);
    const shuffled = [...missing.filter((_, i) => i % 3 === 1), ...missing.filter((_, i) => i % 3 !== 1)];
    const applied: BlockHeader[] = [];
    for (const block of shuffled) applied.push(...(await applyBlockToChain(view, block)).apply);
    expect(applied).to.deep.equal([]);
    expect(view.canonicalChain()).to.deep.equal(hashes(blocks));
    expect(await view.gaps()).to.deep.equal([]);
    expect(await view.orphanCount()).to.equal(0);
  });

  it('merges a new gap with the gap below it when the block above that gap is rolled back', async () => {
    const blocks = await gapAfterTen();
    const [stranger] = grow(new ChainBuilder({ label: 'stranger', startHeight: 51 }), 1);
    const update = await applyBlockToChain(view, stranger, { at: 99 });
    expect(update.rollback).to.deep.equal([blocks[49]]);
    expect(update.apply).to.deep.equal([stranger]);
    expect(kinds(update.notes)).to.deep.equal(['gap_closed', 'gap_opened']);
    expect(await view.gaps()).to.deep.equal([
      { from_height: 11, to_height: 50, above: stranger, opened_by: stranger.hash, opened_at: 99 },
    ]);
  });

  it('closes a gap when the chain switches to a fork below it', async () => {
    const blocks = await gapAfterTen();
    const [fork] = grow(chain.forkFrom(blocks[4].hash), 1);
    const update = await applyBlockToChain(view, fork);
    expect(hashes(update.rollback)).to.deep.equal(hashes([blocks[49], ...blocks.slice(5, 10).reverse()]));
    expect(update.apply).to.deep.equal([fork]);
    expect(update.notes).to.deep.equal([
      {
        kind: 'gap_closed',
        gap: {
          from_height: 11,
          to_height: 49,
          above: blocks[49],
          opened_by: blocks[49].hash,
          opened_at: 1234,
        },
        how: 'switched',
        by: fork.hash,
      },
    ]);
    expect(await view.gaps()).to.deep.equal([]);
  });

  it('switches to a fork that grows inside a gap once it reaches the height above the gap', async () => {
    const blocks = await gapAfterTen();
    const fork = grow(chain.forkFrom(blocks[9].hash), 40);
    for (const block of fork.slice(0, 39)) {
      expect(await applyBlockToChain(view, block)).to.deep.equal({ rollback: [], apply: [] });
    }
    const update = await applyBlockToChain(view, fork[39]);
    expect(update.rollback).to.deep.equal([blocks[49]]);
    expect(update.apply).to.deep.equal(fork);
    expect(await view.gaps()).to.deep.equal([]);
  });

  it('keeps two gaps apart and fills one without touching the other', async () => {
    const blocks = grow(chain, 40);
    await applyAll(blocks.slice(0, 5));
    await applyAll(blocks.slice(19, 25));
    await applyAll(blocks.slice(39, 40));
    expect((await view.gaps()).map((gap) => [gap.from_height, gap.to_height])).to.deep.equal([
      [6, 19],
      [26, 39],
    ]);
    await applyAll(blocks.slice(25, 39));
    expect((await view.gaps()).map((gap) => [gap.from_height, gap.to_height])).to.deep.equal([[6, 19]]);
    expect(await view.tip()).to.deep.equal(blocks[39]);
  });
});

describe('applyBlockToChain holding orphans', () => {
  let view: MemoryChainView;
  let chain: ChainBuilder;

  beforeEach(async () => {
    view = new MemoryChainView();
    chain = new ChainBuilder();
  });

  it('holds a block at or below the tip whose parent is unknown, with a note', async () => {
    const main = grow(chain, 5);
    for (const block of main) await applyBlockToChain(view, block);
    const [, below] = grow(chain.forkFrom(main[1].hash), 2);
    expect(await applyBlockToChain(view, below)).to.deep.equal({
      rollback: [],
      apply: [],
      notes: [{ kind: 'orphan_held', block: below, held: 1 }],
    });
    expect(await view.tip()).to.deep.equal(main[4]);
  });

  it('drops the oldest orphan beyond the count bound', async () => {
    const main = grow(chain, 10);
    for (const block of main) await applyBlockToChain(view, block);
    const orphans = [2, 3, 4].map((height) => grow(chain.forkFrom(main[height].hash), 2)[1]);
    await applyBlockToChain(view, orphans[0], { maxHeldOrphans: 2 });
    await applyBlockToChain(view, orphans[1], { maxHeldOrphans: 2 });
    const update = await applyBlockToChain(view, orphans[2], { maxHeldOrphans: 2 });
    expect(update.notes).to.deep.equal([
      { kind: 'orphan_held', block: orphans[2], held: 3 },
      { kind: 'orphan_dropped', block: orphans[0], reason: 'too_many' },
    ]);
    expect(await view.heldOrphans()).to.deep.equal(orphans.slice(1));
  });

  it('drops an orphan once the tip is more than the depth bound above it', async () => {
    const main = grow(chain, 5);
    for (const block of main) await applyBlockToChain(view, block);
    const [, orphan] = grow(chain.forkFrom(main[1].hash), 2);
    await applyBlockToChain(view, orphan, { maxOrphanDepth: 3 });
    const more = grow(chain, 3);
    const notes: ChainNote[] = [];
    for (const block of more)
      notes.push(...((await applyBlockToChain(view, block, { maxOrphanDepth: 3 })).notes ?? []));
    expect(notes).to.deep.equal([{ kind: 'orphan_dropped', block: orphan, reason: 'too_deep' }]);
    expect(await view.orphanCount()).to.equal(0);
  });

  it('never connects a dropped orphan, even when its parent arrives', async () => {
    const main = grow(chain, 10);
    for (const block of main) await applyBlockToChain(view, block);
    const [parent, orphan] = grow(chain.forkFrom(main[2].hash), 2);
    await applyBlockToChain(view, orphan, { maxHeldOrphans: 0 });
    const update = await applyBlockToChain(view, parent);
    expect(update.apply).to.deep.equal([parent]);
    expect(await view.header(orphan.hash)).to.equal(undefined);
  });
});
