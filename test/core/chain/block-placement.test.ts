import { expect } from 'chai';
import type { BlockHeader } from '../../../core/chain/block-header.js';
import { checkBlockPlacement } from '../../../core/chain/block-placement.js';
import { applyBlockToChain } from '../../../core/chain/canonical-chain.js';
import { MemoryChainView } from '../../../core/chain/memory-chain-view.js';
import { StackhooksError } from '../../../core/hooks/errors.js';
import { ChainBuilder, headerOf } from '../../support/block-builder.js';

async function refusal(work: Promise<unknown>): Promise<StackhooksError> {
  const error = await work.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).to.be.instanceOf(StackhooksError);
  return error as StackhooksError;
}

describe('checkBlockPlacement', () => {
  let view: MemoryChainView;
  let chain: ChainBuilder;
  let main: BlockHeader[];

  beforeEach(async () => {
    view = new MemoryChainView();
    chain = new ChainBuilder();
    main = Array.from({ length: 5 }, () => headerOf(chain.next()));
    for (const block of main) await applyBlockToChain(view, block);
  });

  it('refuses a block that is its own parent', async () => {
    const self = `0x${'ab'.repeat(32)}`;
    const error = await refusal(checkBlockPlacement(view, { hash: self, height: 9, parent_hash: self }));
    expect(error.details[0]).to.include({ field: 'parent_block_identifier.hash' });
    expect(error.message).to.match(/own parent/);
  });

  it('refuses a block that closes a parent cycle with a stored block', async () => {
    const a = `0x${'a1'.repeat(32)}`;
    const b = `0x${'b2'.repeat(32)}`;
    await applyBlockToChain(view, { hash: a, height: 3, parent_hash: b });
    const error = await refusal(checkBlockPlacement(view, { hash: b, height: 2, parent_hash: a }));
    expect(error.message).to.match(/parent cycle/);
  });

  it('refuses a block whose height is not one above its stored parent', async () => {
    const error = await refusal(
      checkBlockPlacement(view, { hash: `0x${'cd'.repeat(32)}`, height: 9, parent_hash: main[2].hash }),
    );
    expect(error.details[0]).to.deep.equal({
      field: 'block_identifier.index',
      message: `must be 4, one above its parent ${main[2].hash} at 3`,
    });
  });

  it('refuses a block that a gap waits for when its height is not one below the block above the gap', async () => {
    const later = Array.from({ length: 10 }, () => headerOf(chain.next()));
    await applyBlockToChain(view, later[9]);
    const error = await refusal(checkBlockPlacement(view, { ...later[8], height: later[8].height - 3 }));
    expect(error.message).to.match(/one below block/);
  });

  it('refuses a height beyond any chain before it reaches the view', async () => {
    const error = await refusal(
      applyBlockToChain(view, { hash: `0x${'ef'.repeat(32)}`, height: 2 ** 32, parent_hash: main[4].hash }),
    );
    expect(error.details[0].field).to.equal('height');
    expect(await view.tip()).to.deep.equal(main[4]);
  });

  it('accepts a block of the chain', async () => {
    await checkBlockPlacement(view, headerOf(chain.next()));
  });
});
