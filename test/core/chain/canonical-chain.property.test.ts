import { expect } from 'chai';
import fc from 'fast-check';
import type { BlockHeader } from '../../../core/chain/block-header.js';
import { applyBlockToChain } from '../../../core/chain/canonical-chain.js';
import type { ChainUpdate } from '../../../core/chain/chain-update.js';
import { MemoryChainView } from '../../../core/chain/memory-chain-view.js';

const hashOf = (node: number): string => `0x${(node + 1).toString(16).padStart(64, '0')}`;
const OUTSIDE_PARENT = `0x${'e'.repeat(64)}`;

/** A random block tree (node 0 is the root; each later node's parent came before it), a delivery order with re-deliveries. */
const deliveries = fc
  .integer({ min: 1, max: 40 })
  .chain((size) =>
    fc.record({
      parents: fc.tuple(
        ...Array.from({ length: size - 1 }, (_, k) =>
          // Mostly a recent parent, so that long branches and deep forks are common.
          fc.oneof(
            { weight: 3, arbitrary: fc.integer({ min: 0, max: Math.min(k, 2) }).map((back) => k - back) },
            { weight: 1, arbitrary: fc.integer({ min: 0, max: k }) },
          ),
        ),
      ),
      order: fc.shuffledSubarray(
        Array.from({ length: size }, (_, node) => node),
        { minLength: size, maxLength: size },
      ),
      repeats: fc.array(fc.tuple(fc.nat(size - 1), fc.nat(size)), { maxLength: 8 }),
    }),
  )
  .map(({ parents, order, repeats }) => {
    const headers: BlockHeader[] = [{ hash: hashOf(0), height: 100, parent_hash: OUTSIDE_PARENT }];
    parents.forEach((parent, k) => {
      headers.push({ hash: hashOf(k + 1), height: headers[parent].height + 1, parent_hash: hashOf(parent) });
    });
    const sequence = [...order];
    for (const [node, at] of repeats) sequence.splice(Math.max(at, 1), 0, node);
    return { headers, sequence: sequence.map((node) => headers[node]) };
  });

/** The blocks that descend from `root` (itself included): the only ones that can ever connect. */
function subtreeOf(root: BlockHeader, headers: BlockHeader[]): BlockHeader[] {
  const inside = new Set([root.hash]);
  for (const header of [...headers].sort((a, b) => a.height - b.height)) {
    if (inside.has(header.parent_hash)) inside.add(header.hash);
  }
  return headers.filter((header) => inside.has(header.hash));
}

/** Replay updates onto an empty chain, failing on any rollback that is not of the current tip or apply that does not extend it. */
function replay(updates: ChainUpdate[]): string[] {
  const chain: BlockHeader[] = [];
  for (const { rollback, apply } of updates) {
    for (const leaving of rollback) expect(chain.pop()?.hash).to.equal(leaving.hash);
    for (const joining of apply) {
      if (chain.length > 0) expect(joining.parent_hash).to.equal(chain.at(-1)?.hash);
      chain.push(joining);
    }
  }
  return chain.map((header) => header.hash);
}

describe('applyBlockToChain over random block trees delivered in random order', () => {
  it('ends on the longest chain from the first block, and its updates replay to exactly that chain', async () => {
    await fc.assert(
      fc.asyncProperty(deliveries, async ({ headers, sequence }) => {
        const view = new MemoryChainView();
        const updates: ChainUpdate[] = [];
        for (const header of sequence) updates.push(await applyBlockToChain(view, header));

        const reachable = subtreeOf(sequence[0], headers);
        const longest = Math.max(...reachable.map((header) => header.height));
        const tip = await view.tip();
        expect(tip?.height).to.equal(longest);
        const path: string[] = [];
        const byHash = new Map(headers.map((header) => [header.hash, header]));
        for (
          let at = tip;
          at !== undefined && path.length < headers.length;
          at = byHash.get(at.parent_hash)
        ) {
          path.unshift(at.hash);
          if (at.hash === sequence[0].hash) break;
        }
        expect(path[0]).to.equal(sequence[0].hash);
        expect(view.canonicalChain()).to.deep.equal(path);
        expect(replay(updates)).to.deep.equal(path);
      }),
      { numRuns: 400 },
    );
  });

  it('only ever moves the tip to a strictly higher block (a tie keeps the block seen first)', async () => {
    await fc.assert(
      fc.asyncProperty(deliveries, async ({ sequence }) => {
        const view = new MemoryChainView();
        let tipHeight = -1;
        for (const header of sequence) {
          const { apply } = await applyBlockToChain(view, header);
          if (apply.length === 0) continue;
          const newTip = apply.at(-1) as BlockHeader;
          expect(newTip.height).to.be.greaterThan(tipHeight);
          tipHeight = newTip.height;
        }
      }),
      { numRuns: 400 },
    );
  });

  it('never connects a block that does not descend from the first block', async () => {
    await fc.assert(
      fc.asyncProperty(deliveries, async ({ headers, sequence }) => {
        const view = new MemoryChainView();
        const seen = new Set<string>();
        for (const header of sequence) {
          const { apply } = await applyBlockToChain(view, header);
          for (const joining of apply) seen.add(joining.hash);
        }
        const reachable = new Set(subtreeOf(sequence[0], headers).map((header) => header.hash));
        for (const hash of seen) expect(reachable.has(hash)).to.equal(true);
        for (const header of headers) {
          expect((await view.header(header.hash)) !== undefined).to.equal(reachable.has(header.hash));
        }
      }),
      { numRuns: 200 },
    );
  });
});
