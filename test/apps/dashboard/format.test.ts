import { expect } from 'chai';
import { describeAttempt, summarizeFilters } from '../../../apps/dashboard/format.js';

describe('summarizeFilters', () => {
  it('names each filter with the fields that narrow it', () => {
    expect(
      summarizeFilters([
        { type: 'stx_transfer' },
        { type: 'contract_call', contract_identifier: 'SP1.pool', function_name: 'swap' },
      ]),
    ).to.equal('stx_transfer; contract_call (contract_identifier=SP1.pool, function_name=swap)');
  });
});

describe('describeAttempt', () => {
  it('says the status once when the error repeats it', () => {
    expect(describeAttempt({ at: 0, status_code: 500, error: 'HTTP 500', latency_ms: 3 })).to.equal(
      'HTTP 500',
    );
  });

  it('gives the error of an attempt that got no answer', () => {
    expect(
      describeAttempt({ at: 0, status_code: null, error: 'connection refused', latency_ms: 3 }),
    ).to.equal('connection refused');
  });
});
