import { expect } from 'chai';
import { checkIndexBlockHash, deriveIndexBlockHash } from '../../../core/stacks-codec/index-block-hash.js';
import { checkNodeBlock } from '../../../core/stacks-codec/check-node-block.js';
import { ChainBuilder } from '../../support/block-builder.js';
import { atHeight, ownParent, squatting } from '../../support/poison-bodies.js';

// A testnet block of November 2024 as its miner proposed it to the signers (StackerDB): its block
// hash and consensus hash, and the id the node gave it in the block's own event.
const REAL = {
  block_hash: '0x7f16a269608429bad663b7753a7615e00b1c4c69120e7702541364bcf476e166',
  consensus_hash: '0x1cd59055609f5f57e5327bf7263aed860fba1a1f',
  index_block_hash: '0x26aee9732113eccb1d68cefc7cb838a138aececa0b9ce29dfa28b1125005f1fa',
};

describe('deriveIndexBlockHash', () => {
  it('derives the id the node gave a real block from its block hash and consensus hash', () => {
    expect(deriveIndexBlockHash(REAL.block_hash, REAL.consensus_hash)).to.equal(REAL.index_block_hash);
  });

  it('reads hashes with or without 0x', () => {
    expect(deriveIndexBlockHash(REAL.block_hash.slice(2), REAL.consensus_hash.slice(2))).to.equal(
      REAL.index_block_hash,
    );
  });
});

describe('checkIndexBlockHash', () => {
  it('passes a body whose id its hashes derive, in any case', () => {
    expect(() => checkIndexBlockHash(REAL)).to.not.throw();
    expect(() =>
      checkIndexBlockHash({ ...REAL, index_block_hash: REAL.index_block_hash.toUpperCase().slice(2) }),
    ).to.not.throw();
  });

  it('refuses a body that claims an id its hashes do not derive, naming index_block_hash', () => {
    const other = `0x${'ab'.repeat(32)}`;
    expect(() => checkIndexBlockHash({ ...REAL, index_block_hash: other })).to.throw(
      /^index_block_hash must be 0x26aee973/,
    );
  });

  it('passes a body without a consensus hash, which cannot be checked', () => {
    expect(() =>
      checkIndexBlockHash({ block_hash: REAL.block_hash, index_block_hash: `0x${'ab'.repeat(32)}` }),
    ).to.not.throw();
  });

  it('refuses a consensus hash that is not 20 bytes of hex', () => {
    expect(() => checkIndexBlockHash({ ...REAL, consensus_hash: '0x1234' })).to.throw(
      /^consensus_hash must be/,
    );
  });
});

describe('checkNodeBlock', () => {
  const chain = new ChainBuilder();
  const good = chain.next();

  it('passes every block the test builder makes', () => {
    expect(checkNodeBlock(good)).to.equal(good);
  });

  it('refuses a body that is no object, naming the body', () => {
    for (const body of [null, 7, 'block', [good]])
      expect(() => checkNodeBlock(body)).to.throw(/^body must be a JSON object/);
  });

  it('refuses ids that are no 32-byte hashes, naming the field', () => {
    expect(() => checkNodeBlock({ ...good, index_block_hash: '0x12' })).to.throw(
      /^index_block_hash must be a 32-byte/,
    );
    expect(() => checkNodeBlock({ ...good, parent_index_block_hash: undefined })).to.throw(
      /^parent_index_block_hash must be a 32-byte/,
    );
  });

  it('refuses heights no chain has: 2^32, 1e15, negative, fractional', () => {
    expect(() => checkNodeBlock(atHeight(good, 2 ** 32))).to.throw(
      /^block_height must be at most 2147483647/,
    );
    expect(() => checkNodeBlock(atHeight(good, 1e15))).to.throw(/^block_height must be at most/);
    expect(() => checkNodeBlock(atHeight(good, -1))).to.throw(/^block_height must be a non-negative integer/);
    expect(() => checkNodeBlock(atHeight(good, 1.5))).to.throw(
      /^block_height must be a non-negative integer/,
    );
  });

  it('refuses a body squatting the id of a block yet to come', () => {
    const future = new ChainBuilder({ label: 'future' }).next();
    expect(() => checkNodeBlock(squatting(future, good))).to.throw(/^index_block_hash must be/);
  });

  it('leaves a block that is its own parent to the chain model, which knows the tree', () => {
    expect(() => checkNodeBlock(ownParent(good))).to.not.throw();
  });
});
