import { expect } from 'chai';
import { bucketActivity } from '../../../apps/dashboard/activity.js';
import type { DeliveryAttempt, DeliveryRecord } from '../../../apps/dashboard/api-types.js';

const NOW = 1_800_000_000_000;

function delivery(createdAt: number, attempts: Partial<DeliveryAttempt>[] = []): DeliveryRecord {
  return {
    id: `d${createdAt}`,
    hook_uuid: 'u',
    kind: 'live',
    state: 'pending',
    apply: [],
    rollback: [],
    created_at: createdAt,
    next_attempt_at: null,
    failure_reason: null,
    held_reason: null,
    attempts: attempts.map((a) => ({ at: createdAt, status_code: 200, error: null, latency_ms: 1, ...a })),
  };
}

describe('bucketActivity', () => {
  it('splits the last hour into twelve 5-minute slices, oldest first', () => {
    const buckets = bucketActivity([], NOW);
    expect(buckets).to.have.length(12);
    expect(buckets[0].start).to.equal(NOW - 3_600_000);
    expect(buckets[11].start).to.equal(NOW - 300_000);
  });

  it('counts a delivery in the slice it was created in, and none older than an hour', () => {
    const buckets = bucketActivity([delivery(NOW - 1_000), delivery(NOW - 3_600_001)], NOW);
    expect(buckets.map((b) => b.deliveries)).to.deep.equal([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
  });

  it('counts failed attempts (an error, no answer or a status outside 2xx) in the slice they ran in', () => {
    const buckets = bucketActivity(
      [
        delivery(NOW - 2_000_000, [
          { at: NOW - 2_000_000, status_code: 500, error: 'HTTP 500' },
          { at: NOW - 1_000, status_code: null, error: 'connection refused' },
          { at: NOW - 500, status_code: 200 },
        ]),
      ],
      NOW,
    );
    expect(buckets.reduce((sum, b) => sum + b.failures, 0)).to.equal(2);
    expect(buckets[11].failures).to.equal(1);
  });
});
