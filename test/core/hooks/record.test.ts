import { expect } from 'chai';
import { createHook, interruptHook } from '../../../core/hooks/lifecycle.js';
import { toHookRecord } from '../../../core/hooks/record.js';
import { sampleDefinition } from '../../support/definitions.js';

const stored = createHook('alice', '00000000-0000-4000-8000-000000000001', sampleDefinition(), 0);
const slow = {
  lane: 'slow' as const,
  circuit: { origin: 'https://example.com', state: 'closed' as const, failures: 0, open_until: null },
};

describe('toHookRecord', () => {
  it("gives a hook with no delivery state Hiro's record, without its owner", () => {
    const record = toHookRecord(stored);
    expect(record).to.have.all.keys('uuid', 'definition', 'status');
  });

  it("shows the receiver's standing under delivery when given one", () => {
    expect(toHookRecord(stored, slow)).to.have.deep.property('delivery', { receiver: slow });
  });

  it('shows the standing beside an interruption', () => {
    const interruption = { first_missed_block_height: 7, interrupted_at: 1, reason: 'HTTP 500' };
    const record = toHookRecord(interruptHook(stored, interruption), slow);
    expect(record.delivery).to.deep.equal({ interruption, receiver: slow });
  });
});
