import { expect } from 'chai';
import { decodeBlockRecord, encodeBlockRecord } from '../../../adapters/archive-fs/block-record.js';
import type { NormalizedBlock } from '../../../core/chain/block.js';
import { sampleBlocks } from '../../core/payload/sample-blocks.js';

describe('block records', () => {
  let blocks: NormalizedBlock[];
  before(async () => {
    const { epoch2, nakamoto } = await sampleBlocks();
    blocks = [epoch2, nakamoto];
  });

  it('leave the operations out of the stored JSON', () => {
    for (const block of blocks) {
      expect(block.transactions.some((tx) => tx.operations.length > 0)).to.equal(true);
      const stored = JSON.parse(encodeBlockRecord(block).toString('utf8')) as { transactions: object[] };
      expect(stored.transactions).to.have.length(block.transactions.length);
      for (const tx of stored.transactions) expect(tx).to.not.have.property('operations');
    }
  });

  it('read back as the block that was stored, operations built again', () => {
    for (const block of blocks) expect(decodeBlockRecord(encodeBlockRecord(block))).to.deep.equal(block);
  });

  it('read a record written with its operations (the earlier layout) as it was written', () => {
    const legacy = JSON.parse(JSON.stringify(blocks[0])) as NormalizedBlock;
    legacy.transactions[0].operations = [];
    expect(decodeBlockRecord(Buffer.from(JSON.stringify(legacy)))).to.deep.equal(legacy);
  });
});
