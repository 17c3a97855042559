import { expect } from 'chai';
import fc from 'fast-check';
import type { BlockHeader } from '../../../core/chain/block-header.js';
import { applyBlockToChain, type ChainRules } from '../../../core/chain/canonical-chain.js';
import type { ChainUpdate } from '../../../core/chain/chain-update.js';
import { MemoryChainView } from '../../../core/chain/memory-chain-view.js';
import { StackhooksError } from '../../../core/hooks/errors.js';
import { streams, trees, type Delivery } from '../../support/chain-streams.js';

const RULES: ChainRules = { maxHeldOrphans: 3, maxOrphanDepth: 8 };

type Snapshot = { tip: unknown; canonical: unknown; gaps: unknown; held: unknown };
async function snapshot(view: MemoryChainView): Promise<Snapshot> {
  return {
    tip: await view.tip(),
    canonical: [...view.canonical],
    gaps: await view.gaps(),
    held: await view.heldOrphans(),
  };
}

/** Deliver a stream; poison must be refused with a validation error and change nothing, a block never. */
async function deliver(
  view: MemoryChainView,
  stream: Delivery[],
  each?: (delivery: Delivery, update: ChainUpdate) => void,
): Promise<ChainUpdate[]> {
  const updates: ChainUpdate[] = [];
  for (const delivery of stream) {
    const before = await snapshot(view);
    try {
      const update = await applyBlockToChain(view, delivery.header, RULES);
      expect(delivery.poison, `accepted poison ${JSON.stringify(delivery.header)}`).to.equal(false);
      updates.push(update);
      each?.(delivery, update);
    } catch (err) {
      if (!(err instanceof StackhooksError) || !delivery.poison) throw err;
      expect(await snapshot(view)).to.deep.equal(before);
    }
  }
  return updates;
}

describe('applyBlockToChain over random streams with gaps and poison', () => {
  it('never stalls: a block first sent above the tip moves the tip to at least its height, at once', async () => {
    await fc.assert(
      fc.asyncProperty(streams, async (stream) => {
        const view = new MemoryChainView();
        const sent = new Set<string>();
        for (const delivery of stream) {
          const before = await view.tip();
          const known = sent.has(delivery.header.hash);
          sent.add(delivery.header.hash);
          try {
            await applyBlockToChain(view, delivery.header, RULES);
          } catch (err) {
            if (!delivery.poison) throw err;
            continue;
          }
          const above = before === undefined || delivery.header.height > before.height;
          if (above && !known) expect((await view.tip())?.height).to.be.at.least(delivery.header.height);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('refuses every poison body without changing the chain, and never refuses a block', async () => {
    await fc.assert(
      fc.asyncProperty(streams, async (stream) => {
        await deliver(new MemoryChainView(), stream);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the canonical chain linked, with exactly its holes recorded as gaps', async () => {
    await fc.assert(
      fc.asyncProperty(streams, async (stream) => {
        const view = new MemoryChainView();
        await deliver(view, stream);
        const tip = await view.tip();
        if (tip === undefined) return;
        const heights = [...view.canonical.keys()].sort((a, b) => a - b);
        expect(heights.at(-1)).to.equal(tip.height);
        expect(view.canonical.get(tip.height)).to.equal(tip.hash);
        const gaps = await view.gaps();
        const holes: [number, number][] = [];
        for (let k = 1; k < heights.length; k++) {
          const below = view.headers.get(view.canonical.get(heights[k - 1]) as string) as BlockHeader;
          const above = view.headers.get(view.canonical.get(heights[k]) as string) as BlockHeader;
          if (heights[k] === heights[k - 1] + 1) expect(above.parent_hash).to.equal(below.hash);
          else holes.push([heights[k - 1] + 1, heights[k] - 1]);
        }
        // A gap may also reach below the lowest canonical block (its lower end was rolled back).
        const recorded = gaps.map((gap) => [gap.from_height, gap.to_height]);
        for (const hole of holes) expect(recorded).to.deep.include(hole);
        for (const gap of gaps) {
          expect(view.canonical.get(gap.to_height + 1)).to.equal(gap.above.hash);
          for (let h = gap.from_height; h <= gap.to_height; h++)
            expect(view.canonical.has(h)).to.equal(false);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('emits updates that, replayed, only ever hold canonical blocks, rolling back what they hold', async () => {
    await fc.assert(
      fc.asyncProperty(streams, async (stream) => {
        const view = new MemoryChainView();
        const replayed = new Map<number, string>();
        await deliver(view, stream, (_delivery, { rollback, apply }) => {
          for (const leaving of rollback) {
            const held = replayed.get(leaving.height);
            // A block that filled a gap was never applied, and may leave like any canonical block.
            if (held !== undefined) expect(held).to.equal(leaving.hash);
            replayed.delete(leaving.height);
          }
          for (const joining of apply) {
            expect(replayed.has(joining.height), `apply over ${joining.height}`).to.equal(false);
            replayed.set(joining.height, joining.hash);
          }
        });
        for (const [height, hash] of replayed) expect(view.canonical.get(height)).to.equal(hash);
      }),
      { numRuns: 400 },
    );
  });

  it('holds no more orphans than the bound', async () => {
    await fc.assert(
      fc.asyncProperty(streams, async (stream) => {
        const view = new MemoryChainView();
        await deliver(view, stream, () => {
          expect(view.orphans.size).to.be.at.most(RULES.maxHeldOrphans as number);
        });
      }),
      { numRuns: 200 },
    );
  });
});

describe('applyBlockToChain over random trees sent parent first', () => {
  it('makes every block the tip on arrival and ends on the branch to the last block', async () => {
    await fc.assert(
      fc.asyncProperty(trees, async (headers) => {
        const view = new MemoryChainView();
        for (const header of headers) {
          await applyBlockToChain(view, header);
          expect(await view.tip()).to.deep.equal(header);
        }
        const byHash = new Map(headers.map((header) => [header.hash, header]));
        const branch: string[] = [];
        for (let at = headers.at(-1); at !== undefined; at = byHash.get(at.parent_hash))
          branch.unshift(at.hash);
        expect(view.canonicalChain()).to.deep.equal(branch);
        expect(await view.gaps()).to.deep.equal([]);
      }),
      { numRuns: 300 },
    );
  });
});
