import { expect } from 'chai';
import { CHAIN_STALLED, STORES_UNREACHABLE, decideReadiness } from '../../../core/health/readiness.js';

const MINUTE = 60_000;

describe('decideReadiness', () => {
  it('is ready with no condition, readable stores and a recent block', () => {
    const stall = { lastBlockAt: 9 * MINUTE, startedAt: 0, maxAgeMs: 5 * MINUTE };
    expect(decideReadiness({ now: 10 * MINUTE, conditions: [], stall })).to.deep.equal({
      ready: true,
      reasons: [],
    });
  });

  it('gives every raised condition as a reason', () => {
    const condition = { name: 'storage_full', reason: 'disk full', since: 5 };
    expect(decideReadiness({ now: 10, conditions: [condition] })).to.deep.equal({
      ready: false,
      reasons: [condition],
    });
  });

  it('is unready while the stores cannot be read', () => {
    const readiness = decideReadiness({ now: 10, conditions: [], storeError: 'connection refused' });
    expect(readiness.ready).to.equal(false);
    expect(readiness.reasons.map((r) => r.name)).to.deep.equal([STORES_UNREACHABLE]);
    expect(readiness.reasons[0].reason).to.include('connection refused');
  });

  it('names the database once when its condition is raised and the read failed too', () => {
    const down = { name: 'database_unreachable', reason: 'down', since: 1 };
    const readiness = decideReadiness({ now: 10, conditions: [down], storeError: 'timeout' });
    expect(readiness.reasons).to.deep.equal([down]);
  });

  it('is unready once no block has come for longer than the allowed age, from when it was due', () => {
    const stall = { lastBlockAt: 2 * MINUTE, startedAt: 0, maxAgeMs: 5 * MINUTE };
    const readiness = decideReadiness({ now: 8 * MINUTE, conditions: [], stall });
    expect(readiness.ready).to.equal(false);
    expect(readiness.reasons[0]).to.include({ name: CHAIN_STALLED, since: 7 * MINUTE });
    expect(readiness.reasons[0].reason).to.include('no block for 360s');
  });

  it('counts the age from the start when the last block is older or there is none', () => {
    const stall = { lastBlockAt: undefined, startedAt: 10 * MINUTE, maxAgeMs: 5 * MINUTE };
    expect(decideReadiness({ now: 14 * MINUTE, conditions: [], stall }).ready).to.equal(true);
    const late = decideReadiness({ now: 16 * MINUTE, conditions: [], stall });
    expect(late.reasons[0].reason).to.include('no block has come since the start');
  });

  it('checks no age when the limit is 0', () => {
    const stall = { lastBlockAt: 0, startedAt: 0, maxAgeMs: 0 };
    expect(decideReadiness({ now: 100 * MINUTE, conditions: [], stall }).ready).to.equal(true);
  });
});
