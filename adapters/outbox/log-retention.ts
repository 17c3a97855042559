import type { ColdPayload } from './cold-run.js';
import type { HookLog } from './hook-log.js';
import { MinHeap } from './min-heap.js';
import type { OutboxEntry } from './outbox-entry.js';
import type { SettledPayload } from './settled-run.js';

/** How a prune lets go of what it forgets. */
export type Forgetting = {
  /** An entry in memory. */
  entry: (entry: OutboxEntry) => void;
  /** A failed payload of a cold run (its record). */
  cold: (payload: ColdPayload) => void;
  /** A settled payload on disk (its settlement record, and its payload record if still kept). */
  settled: (payload: SettledPayload) => void;
};

/**
 * Forget a hook's settled payloads created before `before`: the entries in memory (the log is
 * sorted by creation, so only its expired front is looked at), the front of its settled run and
 * of its failed runs on disk. Returns how many went.
 */
export function pruneHookLog(hook: HookLog, before: number, forget: Forgetting): number {
  let forgotten = 0;
  let end = 0;
  while (end < hook.log.length && hook.log[end].meta.created_at < before) end++;
  if (end > 0) {
    // Pending payloads older than the retention stay: only settled ones expire.
    const kept: OutboxEntry[] = [];
    for (const entry of hook.log.slice(0, end)) {
      if (entry.state === 'pending') kept.push(entry);
      else {
        forget.entry(entry);
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
      forget.cold(p);
      forgotten++;
    }
  }
  for (const p of hook.settled.dropCreatedBefore(before)) {
    forget.settled(p);
    forgotten++;
  }
  if (hook.cold.some((run) => run.length === 0)) hook.cold = hook.cold.filter((run) => run.length > 0);
  return forgotten;
}

/** One delivery of a payload whose body is kept: which payload, where it sorts, and when. */
export type KeptBody = { hook: string; id: string; created_at: number; seq: number; at: number };

/**
 * The delivered payloads whose bodies are still kept, earliest delivery first, so letting go of
 * those past the grace period costs what goes, not a pass over every entry. Each is named, not
 * held, as it may leave memory meanwhile; one redelivered since (or forgotten) is skipped when its
 * turn comes.
 */
export class DeliveredBodies {
  private readonly heap = new MinHeap<KeptBody>((a, b) => a.at < b.at);

  /** A payload was delivered at `entry.delivered_at` and keeps its body for now. */
  delivered(entry: OutboxEntry): void {
    if (!entry.loc || entry.delivered_at === null) return;
    const { hook_uuid: hook, id, created_at } = entry.meta;
    this.heap.push({ hook, id, created_at, seq: entry.seq, at: entry.delivered_at });
  }

  /** A payload restored on disk keeps its body (its id unread: it is found by where it sorts). */
  restored(hook: string, p: SettledPayload): void {
    if (p.payload && p.delivered_at !== null)
      this.heap.push({ hook, id: '', created_at: p.created_at, seq: p.seq, at: p.delivered_at });
  }

  /** Hand each delivery before `cutoff` to `drop`, which tells whether it let a body go; returns how many did. */
  dropBefore(cutoff: number, drop: (kept: KeptBody) => boolean): number {
    let dropped = 0;
    for (let top = this.heap.peek(); top && top.at < cutoff; top = this.heap.peek()) {
      this.heap.pop();
      if (drop(top)) dropped++;
    }
    return dropped;
  }

  /** Deliveries tracked, stale ones included (a test view). */
  get size(): number {
    return this.heap.size;
  }
}
