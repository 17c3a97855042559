import { expect } from 'chai';
import type { BlockHeader } from '../../../core/chain/block-header.js';
import { applyBlockToChain } from '../../../core/chain/canonical-chain.js';
import { noChainChange } from '../../../core/chain/chain-update.js';
import { MemoryChainView } from '../../../core/chain/memory-chain-view.js';
import { StackhooksError } from '../../../core/hooks/errors.js';
import { ChainBuilder, headerOf } from '../../support/block-builder.js';

/** `count` more headers on `chain`'s current branch. */
function grow(chain: ChainBuilder, count: number): BlockHeader[] {
  return Array.from({ length: count }, () => headerOf(chain.next()));
}

const hashes = (headers: BlockHeader[]): string[] => headers.map((header) => header.hash);

async function applyAll(view: MemoryChainView, headers: BlockHeader[]): Promise<void> {
  for (const header of headers) await applyBlockToChain(view, header);
}

describe('applyBlockToChain', () => {
  let view: MemoryChainView;
  let chain: ChainBuilder;

  beforeEach(() => {
    view = new MemoryChainView();
    chain = new ChainBuilder();
  });

  it('makes the first block the tip and applies it', async () => {
    const [first] = grow(chain, 1);
    expect(await applyBlockToChain(view, first)).to.deep.equal({ rollback: [], apply: [first] });
    expect(await view.tip()).to.deep.equal(first);
  });

  it('applies a block whose parent is the tip', async () => {
    const [a, b] = grow(chain, 2);
    await applyBlockToChain(view, a);
    expect(await applyBlockToChain(view, b)).to.deep.equal({ rollback: [], apply: [b] });
    expect(view.canonicalChain()).to.deep.equal([a.hash, b.hash]);
  });

  it('treats a block it already has as a no-op', async () => {
    const [a, b] = grow(chain, 2);
    await applyAll(view, [a, b]);
    expect(await applyBlockToChain(view, a)).to.deep.equal(noChainChange());
    expect(await applyBlockToChain(view, b)).to.deep.equal(noChainChange());
    expect(await view.tip()).to.deep.equal(b);
  });

  it('treats an orphan it already holds as a no-op', async () => {
    const main = grow(chain, 3);
    await applyAll(view, main);
    const [x, y] = grow(chain.forkFrom(main[0].hash), 2);
    expect((await applyBlockToChain(view, y)).notes).to.deep.equal([
      { kind: 'orphan_held', block: y, held: 1 },
    ]);
    expect(await applyBlockToChain(view, y)).to.deep.equal(noChainChange());
    expect(await applyBlockToChain(view, x)).to.deep.equal({ rollback: [main[2], main[1]], apply: [x, y] });
  });

  it('switches to a sibling of the tip at once, rolling the tip back', async () => {
    const [a, b] = grow(chain, 2);
    await applyAll(view, [a, b]);
    const [sibling] = grow(chain.forkFrom(a.hash), 1);
    expect(await applyBlockToChain(view, sibling)).to.deep.equal({ rollback: [b], apply: [sibling] });
    expect(view.canonicalChain()).to.deep.equal([a.hash, sibling.hash]);
    expect(await view.tip()).to.deep.equal(sibling);
    expect(await view.header(b.hash)).to.deep.equal(b);
  });

  it('switches to a block lower than the tip, rolling back to the common ancestor', async () => {
    const main = grow(chain, 5);
    await applyAll(view, main);
    const [lower] = grow(chain.forkFrom(main[1].hash), 1);
    const update = await applyBlockToChain(view, lower);
    expect(hashes(update.rollback)).to.deep.equal([main[4].hash, main[3].hash, main[2].hash]);
    expect(update.apply).to.deep.equal([lower]);
    expect(await view.tip()).to.deep.equal(lower);
    expect(view.canonicalChain()).to.deep.equal([main[0].hash, main[1].hash, lower.hash]);
    expect(await view.canonicalHashAt(main[3].height)).to.equal(undefined);
  });

  it('follows a new branch block by block, switching at its first block', async () => {
    const main = grow(chain, 4);
    await applyAll(view, main);
    const side = grow(chain.forkFrom(main[1].hash), 3);
    const first = await applyBlockToChain(view, side[0]);
    expect(hashes(first.rollback)).to.deep.equal([main[3].hash, main[2].hash]);
    expect(first.apply).to.deep.equal([side[0]]);
    expect(await applyBlockToChain(view, side[1])).to.deep.equal({ rollback: [], apply: [side[1]] });
    expect(await applyBlockToChain(view, side[2])).to.deep.equal({ rollback: [], apply: [side[2]] });
    expect(view.canonicalChain()).to.deep.equal([main[0].hash, main[1].hash, ...hashes(side)]);
  });

  it('switches back to the old branch when a block extends it, even below the tip', async () => {
    const main = grow(chain, 3);
    await applyAll(view, main);
    const side = grow(chain.forkFrom(main[0].hash), 4);
    await applyAll(view, side);
    const [back] = grow(chain, 1);
    const update = await applyBlockToChain(view, back);
    expect(hashes(update.rollback)).to.deep.equal(hashes(side).reverse());
    expect(hashes(update.apply)).to.deep.equal([main[1].hash, main[2].hash, back.hash]);
    expect(view.canonicalChain()).to.deep.equal([...hashes(main), back.hash]);
  });

  it('climbs from a lowered tip back onto the old branch, re-applying the blocks above the ancestor', async () => {
    const main = grow(chain, 5);
    await applyAll(view, main);
    const side = grow(chain.forkFrom(main[1].hash), 1);
    await applyBlockToChain(view, side[0]);
    const back = grow(chain, 1);
    const update = await applyBlockToChain(view, back[0]);
    expect(hashes(update.rollback)).to.deep.equal([side[0].hash]);
    expect(hashes(update.apply)).to.deep.equal([...hashes(main.slice(2)), back[0].hash]);
    expect(view.canonicalChain()).to.deep.equal([...hashes(main), back[0].hash]);
  });

  it('holds an orphan below the tip until its parent arrives, then connects it and its held children in one update', async () => {
    const main = grow(chain, 5);
    await applyAll(view, main);
    const [x, y, z] = grow(chain.forkFrom(main[1].hash), 3);
    expect((await applyBlockToChain(view, z)).apply).to.deep.equal([]);
    expect((await applyBlockToChain(view, y)).apply).to.deep.equal([]);
    expect(await view.header(y.hash)).to.equal(undefined);
    expect(await applyBlockToChain(view, x)).to.deep.equal({
      rollback: [main[4], main[3], main[2]],
      apply: [x, y, z],
    });
    expect(view.orphans.size).to.equal(0);
  });

  it('switches to a connected cascade even when its highest block is lower than the tip', async () => {
    const main = grow(chain, 5);
    await applyAll(view, main);
    const side = grow(chain.forkFrom(main[0].hash), 2);
    await applyBlockToChain(view, side[1]);
    const update = await applyBlockToChain(view, side[0]);
    expect(hashes(update.rollback)).to.deep.equal(hashes(main.slice(1)).reverse());
    expect(hashes(update.apply)).to.deep.equal(hashes(side));
    expect(view.canonicalChain()).to.deep.equal([main[0].hash, ...hashes(side)]);
  });

  it('makes the highest block of a connected cascade the tip, though another branch was held first', async () => {
    const main = grow(chain, 4);
    await applyAll(view, main);
    const fork = chain.forkFrom(main[0].hash);
    const [b] = grow(fork, 1);
    const [short] = grow(chain.forkFrom(b.hash), 1);
    const long = grow(chain.forkFrom(b.hash), 2);
    await applyAll(view, [short, ...long]);
    const update = await applyBlockToChain(view, b);
    expect(update).to.deep.equal({ rollback: [main[3], main[2], main[1]], apply: [b, ...long] });
    expect(await view.header(short.hash)).to.deep.equal(short);
    expect(view.orphans.size).to.equal(0);
  });

  it('makes the first connected of the highest cascade blocks the tip on a tie', async () => {
    const main = grow(chain, 3);
    await applyAll(view, main);
    const [b] = grow(chain.forkFrom(main[0].hash), 1);
    const [first] = grow(chain.forkFrom(b.hash), 1);
    const [second] = grow(chain.forkFrom(b.hash), 1);
    await applyAll(view, [first, second]);
    expect(await applyBlockToChain(view, b)).to.deep.equal({
      rollback: [main[2], main[1]],
      apply: [b, first],
    });
    expect(await view.header(second.hash)).to.deep.equal(second);
  });

  it('rolls back 500 blocks to switch to a block 500 below the tip', async () => {
    const main = grow(chain, 600);
    await applyAll(view, main);
    const side = grow(chain.forkFrom(main[99].hash), 1);
    const update = await applyBlockToChain(view, side[0]);
    expect(hashes(update.rollback)).to.deep.equal(hashes(main.slice(100)).reverse());
    expect(update.apply).to.deep.equal(side);
    expect(view.canonicalChain()).to.deep.equal([...hashes(main.slice(0, 100)), side[0].hash]);
  });

  it('applies a 500-block-deep reorg that a late parent connects in one update', async () => {
    const main = grow(chain, 600);
    await applyAll(view, main);
    const side = grow(chain.forkFrom(main[99].hash), 500);
    const updates = [];
    for (const header of [...side.slice(1), side[0]]) updates.push(await applyBlockToChain(view, header));
    expect(updates.slice(0, 499).every((u) => u.rollback.length === 0 && u.apply.length === 0)).to.equal(
      true,
    );
    const last = updates[499];
    expect(hashes(last.rollback)).to.deep.equal(hashes(main.slice(100)).reverse());
    expect(hashes(last.apply)).to.deep.equal(hashes(side));
    expect(view.canonicalChain()).to.deep.equal([...hashes(main.slice(0, 100)), ...hashes(side)]);
  });

  it('normalizes hashes given in upper case or without 0x', async () => {
    const [a, b] = grow(chain, 2);
    await applyBlockToChain(view, { ...a, hash: a.hash.toUpperCase().replace('0X', '0x') });
    const update = await applyBlockToChain(view, { ...b, parent_hash: a.hash.slice(2) });
    expect(update.apply).to.deep.equal([b]);
    expect(view.canonicalChain()).to.deep.equal([a.hash, b.hash]);
  });

  it('refuses a block whose height does not follow its parent', async () => {
    const [a, b] = grow(chain, 2);
    await applyBlockToChain(view, a);
    const error = await applyBlockToChain(view, { ...b, height: b.height + 1 }).catch((err: unknown) => err);
    expect(error).to.be.instanceOf(StackhooksError);
    expect((error as StackhooksError).details[0].field).to.equal('block_identifier.index');
    expect(await view.header(b.hash)).to.equal(undefined);
  });

  it('never connects a held orphan whose height does not follow its parent', async () => {
    const main = grow(chain, 4);
    await applyAll(view, main);
    const [x, y] = grow(chain.forkFrom(main[0].hash), 2);
    await applyBlockToChain(view, { ...y, height: y.height + 1 });
    expect(await applyBlockToChain(view, x)).to.deep.equal({
      rollback: [main[3], main[2], main[1]],
      apply: [x],
    });
    expect(await view.header(y.hash)).to.equal(undefined);
  });
});
