import { expect } from 'chai';
import { parseRetryAfter } from '../../../adapters/delivery-got/retry-after.js';

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');

  it('reads delay-seconds', () => {
    expect(parseRetryAfter('7', now)).to.equal(7);
  });

  it('reads an HTTP date as whole seconds from now, rounded up', () => {
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:01:30 GMT', now)).to.equal(90);
    expect(parseRetryAfter(new Date(now + 1500).toUTCString(), now)).to.equal(1);
  });

  it('clamps an HTTP date in the past to 0', () => {
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).to.equal(0);
  });

  it('is null when absent, empty, negative, fractional or unreadable', () => {
    for (const value of [undefined, '', '-5', '1.5', 'soon', 'in 5 minutes']) {
      expect(parseRetryAfter(value, now), String(value)).to.equal(null);
    }
  });
});
