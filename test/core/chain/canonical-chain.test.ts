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
    const [a, b, c] = grow(chain, 3);
    await applyAll(view, [a, c]);
    expect(await applyBlockToChain(view, c)).to.deep.equal(noChainChange());
    expect(await applyBlockToChain(view, b)).to.deep.equal({ rollback: [], apply: [b, c] });
  });

  it('stores a sibling of the tip without switching to it', async () => {
    const [a, b] = grow(chain, 2);
    await applyAll(view, [a, b]);
    const [sibling] = grow(chain.forkFrom(a.hash), 1);
    expect(await applyBlockToChain(view, sibling)).to.deep.equal(noChainChange());
    expect(view.canonicalChain()).to.deep.equal([a.hash, b.hash]);
    expect(await view.header(sibling.hash)).to.deep.equal(sibling);
  });

  it('switches to a branch once it is longer, rolling back to the common ancestor', async () => {
    const main = grow(chain, 4);
    await applyAll(view, main);
    const side = grow(chain.forkFrom(main[1].hash), 3);
    expect(await applyBlockToChain(view, side[0])).to.deep.equal(noChainChange());
    expect(await applyBlockToChain(view, side[1])).to.deep.equal(noChainChange());
    const update = await applyBlockToChain(view, side[2]);
    expect(hashes(update.rollback)).to.deep.equal([main[3].hash, main[2].hash]);
    expect(hashes(update.apply)).to.deep.equal(hashes(side));
    expect(view.canonicalChain()).to.deep.equal([main[0].hash, main[1].hash, ...hashes(side)]);
  });

  it('switches back to the old branch when it becomes the longer one again', async () => {
    const main = grow(chain, 3);
    await applyAll(view, main);
    const side = grow(chain.forkFrom(main[0].hash), 3);
    await applyAll(view, side);
    const back = grow(chain, 2);
    expect(await applyBlockToChain(view, back[0])).to.deep.equal(noChainChange());
    const update = await applyBlockToChain(view, back[1]);
    expect(hashes(update.rollback)).to.deep.equal(hashes(side).reverse());
    expect(hashes(update.apply)).to.deep.equal([main[1].hash, main[2].hash, ...hashes(back)]);
  });

  it('holds an orphan until its parent arrives, then connects it and its held children in one update', async () => {
    const [a, b, c, d] = grow(chain, 4);
    await applyBlockToChain(view, a);
    expect(await applyBlockToChain(view, d)).to.deep.equal(noChainChange());
    expect(await applyBlockToChain(view, c)).to.deep.equal(noChainChange());
    expect(await view.header(c.hash)).to.equal(undefined);
    expect(await applyBlockToChain(view, b)).to.deep.equal({ rollback: [], apply: [b, c, d] });
    expect(view.orphans.size).to.equal(0);
  });

  it('switches to a branch that a late parent connects, in one combined update', async () => {
    const main = grow(chain, 3);
    await applyAll(view, main);
    const side = grow(chain.forkFrom(main[0].hash), 4);
    await applyAll(view, side.slice(1));
    const update = await applyBlockToChain(view, side[0]);
    expect(hashes(update.rollback)).to.deep.equal([main[2].hash, main[1].hash]);
    expect(hashes(update.apply)).to.deep.equal(hashes(side));
  });

  it('applies a 500-block-deep reorg exactly', async () => {
    const main = grow(chain, 600);
    await applyAll(view, main);
    const side = grow(chain.forkFrom(main[99].hash), 501);
    const updates = [];
    for (const header of side) updates.push(await applyBlockToChain(view, header));
    expect(updates.slice(0, 500).every((u) => u.rollback.length === 0 && u.apply.length === 0)).to.equal(
      true,
    );
    const last = updates[500];
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
    const [a, b, c] = grow(chain, 3);
    await applyBlockToChain(view, a);
    await applyBlockToChain(view, { ...c, height: c.height + 5 });
    expect(await applyBlockToChain(view, b)).to.deep.equal({ rollback: [], apply: [b] });
    expect(await view.header(c.hash)).to.equal(undefined);
  });
});
