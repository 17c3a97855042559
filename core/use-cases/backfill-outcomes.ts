import type { StoredBackfill } from '../backfill/backfill.js';
import type { DeliveryQueue } from '../ports/delivery-queue.js';

/**
 * Count the backfill's payloads whose delivery ended, oldest first, and keep those still pending.
 * One hook's payloads go out in order, so the first one pending ends the look. A payload the
 * outbox no longer knows (its hook was deleted, or it was pruned) counts as failed.
 */
export async function settleOutstanding(
  deliveries: DeliveryQueue,
  backfill: StoredBackfill,
): Promise<StoredBackfill> {
  const outstanding = [...backfill.outstanding];
  let delivered = backfill.payloads_delivered;
  let failed = backfill.payloads_failed;
  while (outstanding.length > 0) {
    const record = await deliveries.get(backfill.hook_uuid, outstanding[0]);
    if (record?.state === 'pending') break;
    if (record?.state === 'delivered') delivered++;
    else failed++;
    outstanding.shift();
  }
  if (outstanding.length === backfill.outstanding.length) return backfill;
  return { ...backfill, outstanding, payloads_delivered: delivered, payloads_failed: failed };
}
