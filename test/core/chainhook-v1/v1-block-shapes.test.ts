import { expect } from 'chai';
import type { NormalizedBlock } from '../../../core/chain/block.js';
import { V1BlockShapes, v1BlockShapes } from '../../../core/chainhook-v1/v1-block-shapes.js';
import { v1Predicate, v1SampleBlock } from './v1-sample-block.js';

describe('V1BlockShapes', () => {
  let block: NormalizedBlock;
  const plain = v1Predicate(false, false);

  before(async () => {
    block = await v1SampleBlock();
  });

  it('gives predicates that match the same transactions with the same options the same block object', () => {
    const shapes = v1BlockShapes(block);
    const first = shapes.v1Block([0, 2], plain, 'mainnet');
    const second = v1BlockShapes(block).v1Block([0, 2], { ...plain }, 'mainnet');
    expect(second).to.equal(first);
  });

  it('shapes a block apart for another set of transactions, another network or other options', () => {
    const shapes = new V1BlockShapes(block);
    const base = shapes.v1Block([0, 2], plain, 'mainnet');
    const others = [
      shapes.v1Block([0], plain, 'mainnet'),
      shapes.v1Block([0, 1, 2], plain, 'mainnet'),
      shapes.v1Block([0, 2], plain, 'testnet'),
      shapes.v1Block([0, 2], v1Predicate(true, false), 'mainnet'),
      shapes.v1Block([0, 2], v1Predicate(false, true), 'mainnet'),
    ];
    for (const other of others) expect(other).to.not.equal(base);
    expect(others[0]!.transactions.map((tx) => tx.transaction_identifier)).to.deep.equal([
      block.transactions[0]!.transaction_identifier,
    ]);
    expect(others[2]!.metadata.pox_cycle_length).to.not.equal(base.metadata.pox_cycle_length);
  });

  it('shares a transaction between the blocks of one view, and shows it apart in another view', () => {
    const shapes = new V1BlockShapes(block);
    const [alone] = shapes.v1Block([2], plain, 'mainnet').transactions;
    const [, withOthers] = shapes.v1Block([0, 2], plain, 'mainnet').transactions;
    const [withAbi] = shapes.v1Block([2], v1Predicate(true, false), 'mainnet').transactions;
    expect(withOthers).to.equal(alone);
    expect(withAbi).to.not.equal(alone);
    expect(alone!.metadata).to.not.have.property('contract_abi');
    expect(withAbi!.metadata).to.have.property('contract_abi');
  });

  it('leaves a block shown without decoded values unchanged by a decoding view shaped after it', () => {
    const shapes = new V1BlockShapes(block);
    const raw = shapes.v1Block([0], plain, 'mainnet');
    const before = JSON.stringify(raw);
    const decoded = shapes.v1Block([0], v1Predicate(false, true), 'mainnet');
    expect(decoded.transactions[0]!.metadata.receipt.events.some((e) => 'value' in e.data)).to.equal(true);
    expect(raw.transactions[0]!.metadata.receipt.events.some((e) => 'value' in e.data)).to.equal(false);
    expect(JSON.stringify(raw)).to.equal(before);
  });

  it('refuses a transaction index the block does not have, naming the block', () => {
    expect(() => new V1BlockShapes(block).v1Block([0, 3], plain, 'mainnet')).to.throw(
      RangeError,
      block.block_identifier.hash,
    );
  });
});
