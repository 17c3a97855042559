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

/**
 * The tip the fork-choice rule chooses after `delivered`, worked out from the delivery order alone:
 * a block connects at the delivery that completes its path to the first block; the last delivery
 * that connected anything chose the tip, the highest block it connected, and among equally high
 * ones the first connected (breadth first from the delivered block, siblings in delivery order).
 */
function tipChosenByRule(headers: BlockHeader[], delivered: BlockHeader[]): BlockHeader {
  const firstDelivery = new Map<string, number>();
  delivered.forEach((header, at) => {
    if (!firstDelivery.has(header.hash)) firstDelivery.set(header.hash, at);
  });
  const root = delivered[0];
  const connectsAt = new Map([[root.hash, 0]]);
  for (const header of [...headers].sort((a, b) => a.height - b.height)) {
    const parentAt = connectsAt.get(header.parent_hash);
    const at = firstDelivery.get(header.hash);
    if (parentAt !== undefined && at !== undefined) connectsAt.set(header.hash, Math.max(parentAt, at));
  }
  const last = Math.max(...connectsAt.values());
  const byHash = new Map(headers.map((header) => [header.hash, header]));
  // The first deliveries along the path from the block delivered last down to `header`: BFS order.
  const connectionOrder = (header: BlockHeader): number[] => {
    const path: number[] = [];
    for (let at = header; at.hash !== delivered[last].hash; at = byHash.get(at.parent_hash) as BlockHeader) {
      path.unshift(firstDelivery.get(at.hash) as number);
    }
    return path;
  };
  const earlier = (a: number[], b: number[]): boolean => {
    const differ = a.findIndex((at, i) => at !== b[i]);
    return differ !== -1 && a[differ] < b[differ];
  };
  let chosen: BlockHeader | undefined;
  for (const [hash, at] of connectsAt) {
    if (at !== last) continue;
    const candidate = byHash.get(hash) as BlockHeader;
    if (
      chosen === undefined ||
      candidate.height > chosen.height ||
      (candidate.height === chosen.height && earlier(connectionOrder(candidate), connectionOrder(chosen)))
    ) {
      chosen = candidate;
    }
  }
  return chosen as BlockHeader;
}

/** The branch from the first block delivered up to `tip`, oldest first. */
function branchTo(tip: BlockHeader, headers: BlockHeader[], root: BlockHeader): string[] {
  const byHash = new Map(headers.map((header) => [header.hash, header]));
  const path = [tip.hash];
  for (let at = tip; at.hash !== root.hash;) {
    at = byHash.get(at.parent_hash) as BlockHeader;
    path.unshift(at.hash);
  }
  return path;
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
  it('moves the tip to the block the rule chooses, ending on the branch to the last one chosen', async () => {
    await fc.assert(
      fc.asyncProperty(deliveries, async ({ headers, sequence }) => {
        const view = new MemoryChainView();
        for (let i = 0; i < sequence.length; i++) {
          await applyBlockToChain(view, sequence[i]);
          expect(await view.tip(), `tip after delivery ${i}`).to.deep.equal(
            tipChosenByRule(headers, sequence.slice(0, i + 1)),
          );
        }
        const tip = tipChosenByRule(headers, sequence);
        expect(view.canonicalChain()).to.deep.equal(branchTo(tip, headers, sequence[0]));
      }),
      { numRuns: 400 },
    );
  });

  it('emits updates that, replayed from scratch, rebuild exactly the final canonical chain', async () => {
    await fc.assert(
      fc.asyncProperty(deliveries, async ({ sequence }) => {
        const view = new MemoryChainView();
        const updates: ChainUpdate[] = [];
        for (const header of sequence) updates.push(await applyBlockToChain(view, header));
        expect(replay(updates)).to.deep.equal(view.canonicalChain());
      }),
      { numRuns: 400 },
    );
  });

  it('rolls back only blocks that were applied and not rolled back since', async () => {
    await fc.assert(
      fc.asyncProperty(deliveries, async ({ sequence }) => {
        const view = new MemoryChainView();
        const applied = new Set<string>();
        for (const header of sequence) {
          const { rollback, apply } = await applyBlockToChain(view, header);
          for (const leaving of rollback) {
            expect(applied.has(leaving.hash), `rollback of ${leaving.hash}`).to.equal(true);
            applied.delete(leaving.hash);
          }
          for (const joining of apply) {
            expect(applied.has(joining.hash), `apply of ${joining.hash}`).to.equal(false);
            applied.add(joining.hash);
          }
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
