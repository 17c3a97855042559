import { expect } from 'chai';
import { receiverStanding } from '../../../core/delivery/receiver-standing.js';

const O = 'http://receiver.test';
const closed = { state: 'closed' as const, failures: 0, open_until: null };

describe('receiverStanding', () => {
  it('shows nothing for a hook in the normal lane whose origin circuit is closed', () => {
    expect(receiverStanding('normal', O, closed)).to.equal(undefined);
    expect(receiverStanding('normal', O, { ...closed, failures: 2 })).to.equal(undefined);
  });

  it('shows a slow hook with its origin circuit, even a closed one', () => {
    expect(receiverStanding('slow', O, { ...closed, failures: 1 })).to.deep.equal({
      lane: 'slow',
      circuit: { origin: O, state: 'closed', failures: 1, open_until: null },
    });
  });

  it('shows an open circuit with the time of its next probe in unix seconds, rounded up', () => {
    const standing = receiverStanding('normal', O, {
      state: 'open',
      failures: 3,
      open_until: 1_700_000_000_001,
    });
    expect(standing?.circuit).to.deep.equal({
      origin: O,
      state: 'open',
      failures: 3,
      open_until: 1_700_000_001,
    });
  });

  it('shows a half-open circuit', () => {
    const standing = receiverStanding('slow', O, { state: 'half_open', failures: 4, open_until: 5_000 });
    expect(standing).to.deep.include({ lane: 'slow' });
    expect(standing?.circuit.state).to.equal('half_open');
  });
});
