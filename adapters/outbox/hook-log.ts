import type { DeliveryState } from '../../core/delivery/delivery-record.js';
import { ColdRun, idHash, type ColdPayload } from './cold-run.js';
import type { HookQueue } from './hook-heads.js';
import type { OutboxEntry } from './outbox-entry.js';
import { SettledRun } from './settled-run.js';

/**
 * One hook's part of the outbox: its pending queue (`pending`, the ids of the first payloads,
 * kept in memory, then the pending cold run's payloads, on disk only), and its delivery log (the
 * entries in memory, sorted by (created_at, enqueue order), then the cold runs, oldest first).
 */
export type HookLog = HookQueue & {
  /** Entries in memory: settled ones and the first pending ones. */
  log: OutboxEntry[];
  /** Entries in memory by state. */
  counts: Record<DeliveryState, number>;
  /** Runs on disk only, oldest first; only the last may be pending. */
  cold: ColdRun[];
  /** Settled payloads that left memory, on disk only. */
  settled: SettledRun;
  /** Pending entries in memory that wait inside the pending cold run (redelivered behind it). */
  parked: Set<string>;
};

/** A new hook log on its queue. */
export function newHookLog(queue: HookQueue): HookLog {
  return {
    ...queue,
    log: [],
    counts: { pending: 0, delivered: 0, failed: 0 },
    cold: [],
    settled: new SettledRun(),
    parked: new Set(),
  };
}

/** The hook's pending cold run (the tail of its queue), if it has one. */
export function pendingRun(hook: HookLog): ColdRun | undefined {
  const last = hook.cold.at(-1);
  return last?.state === 'pending' ? last : undefined;
}

/** The pending cold run, started when there is none. */
export function pendingRunOf(hook: HookLog): ColdRun {
  let run = pendingRun(hook);
  if (!run) hook.cold.push((run = new ColdRun('pending')));
  return run;
}

/** Payloads of the hook in the given state (any state when omitted), in memory and on disk. */
export function totalOf(hook: HookLog, state?: DeliveryState): number {
  let total = state ? hook.counts[state] : hook.log.length;
  for (const run of hook.cold) if (!state || run.state === state) total += run.own;
  if (!state) total += hook.settled.length;
  else if (state !== 'pending') total += hook.settled.counts[state];
  return total;
}

/** Pending payloads of the hook, in memory and on disk. */
export function pendingCount(hook: HookLog): number {
  return hook.pending.length + hook.parked.size + (pendingRun(hook)?.own ?? 0);
}

/** Where a cold payload whose id might be `id` is: candidates by hash, each to be read to confirm. */
export function* coldCandidates(
  hook: HookLog,
  id: string,
): Generator<{ run: ColdRun; position: number; payload: ColdPayload }> {
  const hash = idHash(id);
  for (const run of hook.cold) {
    for (const position of run.positionsOf(hash)) {
      const payload = run.at(position);
      if (!payload.twin) yield { run, position, payload };
    }
  }
}
