import { expect } from 'chai';
import type { NormalizedBlock } from '../../../core/chain/block.js';
import { matchBlockReference } from '../../../core/matching/index.js';
import { ChainBuilder, minimalNormalizedBlock } from '../../support/block-builder.js';
import { coinbase, tenureChange } from './transactions.js';

describe('matchBlockReference', () => {
  const block: NormalizedBlock = {
    ...minimalNormalizedBlock(new ChainBuilder().next()),
    transactions: [coinbase(), tenureChange('block_found'), coinbase()],
  };

  it('lists every hook that matches, with the ascending indexes of its transactions', () => {
    const matches = matchBlockReference(
      [
        { uuid: 'coinbases', filters: [{ type: 'coinbase' }] },
        { uuid: 'everything', filters: [{ type: 'tenure_change' }, { type: 'coinbase' }] },
      ],
      block,
    );
    expect(Object.fromEntries(matches)).to.deep.equal({ coinbases: [0, 2], everything: [0, 1, 2] });
  });

  it('leaves out hooks that match nothing', () => {
    const matches = matchBlockReference([{ uuid: 'deploys', filters: [{ type: 'contract_deploy' }] }], block);
    expect(matches.size).to.equal(0);
  });
});
