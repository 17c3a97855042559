import { expect } from 'chai';
import { boundHeapGrowth } from '../../../apps/cli/heap-growth.js';

describe('the standalone server heap growth', () => {
  it('leaves the growth alone when the node flags choose one', () => {
    expect(boundHeapGrowth(['--heap-growing-percent=80'], undefined)).to.equal(false);
  });

  it('leaves the growth alone when NODE_OPTIONS chooses one', () => {
    expect(boundHeapGrowth([], '--max-old-space-size=512 --heap-growing-percent=50')).to.equal(false);
  });

  it('bounds the growth when nothing chose one', () => {
    expect(boundHeapGrowth(['--import', 'tsx'], '--max-old-space-size=512')).to.equal(true);
  });
});
