import type { DeliveryRecord, DeliveryState } from '../../core/delivery/delivery-record.js';
import type { DeliveryPage } from '../../core/ports/delivery-queue.js';
import type { ColdPayload, ColdRun } from './cold-run.js';
import type { SettledPayload } from './settled-run.js';
import { totalOf, type HookLog } from './hook-log.js';
import { logBefore, recordOf, type OutboxEntry } from './outbox-entry.js';

/** Put an entry into a log kept oldest first by (created_at, enqueue order). */
export function insertByAge(log: OutboxEntry[], entry: OutboxEntry): void {
  // Entries nearly always arrive newest, so this is a push; a late one is placed by binary search.
  let at = log.length;
  if (at === 0 || !logBefore(entry, log[at - 1])) {
    // A push: `splice` would allocate the (empty) array of removed entries each time.
    log.push(entry);
    return;
  }
  let low = 0;
  while (low < at) {
    const mid = (low + at) >> 1;
    if (logBefore(entry, log[mid])) at = mid;
    else low = mid + 1;
  }
  log.splice(at, 0, entry);
}

/** Reads one payload on disk as the log shows it: a cold payload of `run`, or a settled one. */
export type DiskReader = {
  cold: (payload: ColdPayload, run: ColdRun) => DeliveryRecord;
  settled: (payload: SettledPayload) => DeliveryRecord;
};

/** One item of a hook's log, newest first: where it sorts, and how to read it (only if on the page). */
type Item = { created_at: number; seq: number; read: () => DeliveryRecord };

/**
 * A page of a hook's log, newest first, optionally of one state: the entries in memory, the cold
 * runs and the settled run merged by (created_at, enqueue order). Only the payloads on disk that
 * are on the page are read.
 */
export function pageOf(
  hook: HookLog,
  options: { state?: DeliveryState; offset: number; limit: number },
  read: DiskReader,
): DeliveryPage {
  const { state, offset, limit } = options;
  const sources = [newestHot(hook, state), newestCold(hook, read, state), newestSettled(hook, read, state)];
  const heads = sources.map((source) => source.next().value as Item | undefined);
  const results: DeliveryRecord[] = [];
  for (let skipped = 0; results.length < limit; skipped++) {
    let newest = -1;
    heads.forEach((item, k) => {
      if (item && (newest < 0 || newer(item, heads[newest]!))) newest = k;
    });
    if (newest < 0) break;
    if (skipped >= offset) results.push(heads[newest]!.read());
    heads[newest] = sources[newest].next().value as Item | undefined;
  }
  return { total: totalOf(hook, state), results };
}

function* newestHot(hook: HookLog, state?: DeliveryState): Generator<Item> {
  for (let i = hook.log.length - 1; i >= 0; i--) {
    const entry = hook.log[i];
    if (!state || entry.state === state)
      yield { created_at: entry.meta.created_at, seq: entry.seq, read: () => recordOf(entry) };
  }
}

// Cold payloads newest first (runs newest first, each back to front), twins left out.
function* newestCold(hook: HookLog, read: DiskReader, state?: DeliveryState): Generator<Item> {
  for (let r = hook.cold.length - 1; r >= 0; r--) {
    const run = hook.cold[r];
    if (state && run.state !== state) continue;
    for (let index = run.length - 1; index >= 0; index--) {
      const payload = run.at(index);
      if (!payload.twin) yield { ...payload, read: () => read.cold(payload, run) };
    }
  }
}

function* newestSettled(hook: HookLog, read: DiskReader, state?: DeliveryState): Generator<Item> {
  const run = hook.settled;
  if (state === 'pending') return;
  for (let index = run.length - 1; index >= 0; index--) {
    if (state && run.stateAt(index) !== state) continue;
    const payload = run.at(index);
    yield { ...payload, read: () => read.settled(payload) };
  }
}

function newer(a: Item, b: Item): boolean {
  return a.created_at > b.created_at || (a.created_at === b.created_at && a.seq > b.seq);
}

/** Take an entry out of a log kept oldest first by (created_at, enqueue order). */
export function removeByAge(log: OutboxEntry[], entry: OutboxEntry): void {
  let low = 0;
  let high = log.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (logBefore(log[mid], entry)) low = mid + 1;
    else high = mid;
  }
  const at = log[low] === entry ? low : log.indexOf(entry);
  if (at >= 0) log.splice(at, 1);
}
