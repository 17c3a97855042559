import { expect } from 'chai';
import { hookLabel } from '../../../apps/dashboard/format.js';

describe('the dashboard hook label', () => {
  const uuid = '6aa0f1e2-3b4c-4d5e-8f90-a1b2c3d4e5f6';

  it('is the hook name when it has one', () => {
    expect(hookLabel({ uuid, definition: { name: 'payments watcher' } as never })).to.equal(
      'payments watcher',
    );
  });

  it('names a hook without a name by the start of its uuid, so its row still links to it', () => {
    expect(hookLabel({ uuid, definition: { name: '' } as never })).to.equal('(unnamed) 6aa0f1e2');
    expect(hookLabel({ uuid, definition: { name: '   ' } as never })).to.equal('(unnamed) 6aa0f1e2');
  });
});
