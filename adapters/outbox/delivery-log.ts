import type { DeliveryRecord, DeliveryState } from '../../core/delivery/delivery-record.js';
import type { DeliveryPage } from '../../core/ports/delivery-queue.js';
import { logBefore, recordOf, type OutboxEntry } from './outbox-entry.js';

/** Put an entry into a log kept oldest first by (created_at, enqueue order). */
export function insertByAge(log: OutboxEntry[], entry: OutboxEntry): void {
  // Entries nearly always arrive newest, so this is a push; a late one is placed by binary search.
  let at = log.length;
  if (at > 0 && logBefore(entry, log[at - 1])) {
    let low = 0;
    while (low < at) {
      const mid = (low + at) >> 1;
      if (logBefore(entry, log[mid])) at = mid;
      else low = mid + 1;
    }
  }
  log.splice(at, 0, entry);
}

/** A page of a log, newest first, optionally of one state; `counts` gives the totals per state. */
export function pageOf(
  log: readonly OutboxEntry[],
  counts: Record<DeliveryState, number>,
  options: { state?: DeliveryState; offset: number; limit: number },
): DeliveryPage {
  const { state, offset, limit } = options;
  const results: DeliveryRecord[] = [];
  if (!state) {
    for (let i = log.length - 1 - offset; i >= 0 && results.length < limit; i--)
      results.push(recordOf(log[i]));
    return { total: log.length, results };
  }
  let skipped = 0;
  for (let i = log.length - 1; i >= 0 && results.length < limit; i--) {
    if (log[i].state !== state) continue;
    if (skipped++ < offset) continue;
    results.push(recordOf(log[i]));
  }
  return { total: counts[state], results };
}
