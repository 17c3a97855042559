import type { ColdPayload } from './cold-run.js';
import type { HookLog } from './hook-log.js';
import { MinHeap } from './min-heap.js';
import type { OutboxEntry } from './outbox-entry.js';

/**
 * Forget a hook's settled payloads created before `before`: the entries in memory (the log is
 * sorted by creation, so only its expired front is looked at) and the front of its failed runs on
 * disk. `forget` lets an entry go, `release` a cold payload's record; returns how many went.
 */
export function pruneHookLog(
  hook: HookLog,
  before: number,
  forget: (entry: OutboxEntry) => void,
  release: (payload: ColdPayload) => void,
): number {
  let forgotten = 0;
  let end = 0;
  while (end < hook.log.length && hook.log[end].meta.created_at < before) end++;
  if (end > 0) {
    // Pending payloads older than the retention stay: only settled ones expire.
    const kept: OutboxEntry[] = [];
    for (const entry of hook.log.slice(0, end)) {
      if (entry.state === 'pending') kept.push(entry);
      else {
        forget(entry);
        hook.counts[entry.state]--;
        forgotten++;
      }
    }
    hook.log.splice(0, end, ...kept);
  }
  for (const run of hook.cold) {
    if (run.state !== 'failed') continue;
    for (const p of run.dropCreatedBefore(before)) {
      if (p.twin) continue;
      release(p);
      forgotten++;
    }
  }
  if (hook.cold.some((run) => run.length === 0)) hook.cold = hook.cold.filter((run) => run.length > 0);
  return forgotten;
}

/** One delivery of a payload whose body is kept: the entry and when it was delivered. */
type Kept = { entry: OutboxEntry; at: number };

/**
 * The delivered payloads whose bodies are still kept, earliest delivery first, so letting go of
 * those past the grace period costs what goes, not a pass over every entry. A payload redelivered
 * since (or forgotten) is skipped when its turn comes.
 */
export class DeliveredBodies {
  private readonly heap = new MinHeap<Kept>((a, b) => a.at < b.at);

  /** A payload was delivered at `entry.delivered_at` and keeps its body for now. */
  delivered(entry: OutboxEntry): void {
    if (entry.loc && entry.delivered_at !== null) this.heap.push({ entry, at: entry.delivered_at });
  }

  /** Hand each payload delivered before `cutoff` that still keeps its body to `drop`; returns how many. */
  dropBefore(cutoff: number, drop: (entry: OutboxEntry) => void): number {
    let dropped = 0;
    for (let top = this.heap.peek(); top && top.at < cutoff; top = this.heap.peek()) {
      this.heap.pop();
      const { entry, at } = top;
      if (entry.state !== 'delivered' || entry.delivered_at !== at || !entry.loc) continue;
      drop(entry);
      dropped++;
    }
    return dropped;
  }

  /** Deliveries tracked, stale ones included (a test view). */
  get size(): number {
    return this.heap.size;
  }
}
