import type { DeliveryRecord, DeliveryState } from '../../core/delivery/delivery-record.js';
import type { DeliveryPage } from '../../core/ports/delivery-queue.js';
import type { ColdPayload, ColdRun } from './cold-run.js';
import { totalOf, type HookLog } from './hook-log.js';
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

/** Reads one cold payload's record as the log shows it. */
export type ColdReader = (payload: ColdPayload, run: ColdRun) => DeliveryRecord;

type Cursor = { run: ColdRun; index: number; payload: ColdPayload };

/**
 * A page of a hook's log, newest first, optionally of one state: the entries in memory and the
 * cold runs merged by (created_at, enqueue order). Only the cold payloads on the page are read.
 */
export function pageOf(
  hook: HookLog,
  options: { state?: DeliveryState; offset: number; limit: number },
  readCold: ColdReader,
): DeliveryPage {
  const { state, offset, limit } = options;
  const results: DeliveryRecord[] = [];
  let hot = hook.log.length - 1;
  const cold = newestCold(hook, state);
  let next = cold.next();
  let skipped = 0;
  while (results.length < limit) {
    while (hot >= 0 && state && hook.log[hot].state !== state) hot--;
    const entry = hot >= 0 ? hook.log[hot] : undefined;
    const candidate = next.done ? undefined : next.value;
    if (!entry && !candidate) break;
    const takeCold = candidate && (!entry || newerCold(candidate.payload, entry));
    if (skipped++ >= offset)
      results.push(takeCold ? readCold(candidate!.payload, candidate!.run) : recordOf(entry!));
    if (takeCold) next = cold.next();
    else hot--;
  }
  return { total: totalOf(hook, state), results };
}

// Cold payloads newest first (runs newest first, each back to front), twins left out.
function* newestCold(hook: HookLog, state?: DeliveryState): Generator<Cursor> {
  for (let r = hook.cold.length - 1; r >= 0; r--) {
    const run = hook.cold[r];
    if (state && run.state !== state) continue;
    for (let index = run.length - 1; index >= 0; index--) {
      const payload = run.at(index);
      if (!payload.twin) yield { run, index, payload };
    }
  }
}

function newerCold(payload: ColdPayload, entry: OutboxEntry): boolean {
  return (
    payload.created_at > entry.meta.created_at ||
    (payload.created_at === entry.meta.created_at && payload.seq > entry.seq)
  );
}
