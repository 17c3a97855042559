import type { DeliveryRecord } from './api-types.js';
import { attemptFailed } from './format.js';

/** One slice of the chart: payloads created in it, and attempts in it that failed. */
export type ActivityBucket = { start: number; deliveries: number; failures: number };

/** The last hour in 5-minute slices. */
export const ACTIVITY_SPAN_MS = 3_600_000;
export const ACTIVITY_BUCKET_MS = 300_000;

/** Count deliveries and failed attempts per slice of the hour before `now` (oldest slice first). */
export function bucketActivity(deliveries: readonly DeliveryRecord[], now: number): ActivityBucket[] {
  const count = ACTIVITY_SPAN_MS / ACTIVITY_BUCKET_MS;
  const from = now - ACTIVITY_SPAN_MS;
  const buckets = Array.from({ length: count }, (_, i) => ({
    start: from + i * ACTIVITY_BUCKET_MS,
    deliveries: 0,
    failures: 0,
  }));
  const slot = (at: number) => {
    const index = Math.floor((at - from) / ACTIVITY_BUCKET_MS);
    return index >= 0 && index < count ? buckets[index] : undefined;
  };
  for (const delivery of deliveries) {
    const bucket = slot(delivery.created_at);
    if (bucket) bucket.deliveries += 1;
    for (const attempt of delivery.attempts) {
      const attemptBucket = attemptFailed(attempt) ? slot(attempt.at) : undefined;
      if (attemptBucket) attemptBucket.failures += 1;
    }
  }
  return buckets;
}
