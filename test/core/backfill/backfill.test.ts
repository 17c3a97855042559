import { expect } from 'chai';
import { finishBackfill, newBackfill, toBackfillRecord } from '../../../core/backfill/backfill.js';

const queued = newBackfill({
  id: 'bf_0123456789abcdef',
  hookUuid: 'h',
  owner: 'o',
  from: 5,
  to: 9,
  now: 1000,
});

describe('toBackfillRecord', () => {
  it('shows neither the owner nor the payloads awaiting delivery', () => {
    const record = toBackfillRecord({ ...queued, outstanding: ['msg_x'] }, 2000);
    expect(record).to.not.have.property('owner');
    expect(record).to.not.have.property('outstanding');
  });

  it('has no rate before the scan starts, and blocks a second since it started while it runs', () => {
    expect(toBackfillRecord(queued, 5000).blocks_per_second).to.equal(null);
    const running = { ...queued, state: 'running' as const, started_at: 1000, blocks_scanned: 300 };
    expect(toBackfillRecord(running, 3000).blocks_per_second).to.equal(150);
  });

  it('keeps the rate of a finished backfill as of when it finished', () => {
    const done = finishBackfill({ ...queued, started_at: 1000, blocks_scanned: 100 }, 'done', 2000);
    expect(toBackfillRecord(done, 99_000).blocks_per_second).to.equal(100);
  });
});

describe('finishBackfill', () => {
  it('leaves a finished backfill as it finished', () => {
    const cancelled = finishBackfill(queued, 'cancelled', 2000, 'cancelled by request');
    expect(finishBackfill(cancelled, 'done', 3000)).to.equal(cancelled);
  });
});
