// Markdown of the slow-receivers bench: one row per isolation run with its targets, and the memory
// run's samples.
import { fmt, markdownTable, met, percentile } from './deliver-report.js';
import type { IsolationRun, MemorySample } from './isolation-run.js';

/** What the issue asks of the healthy hooks beside bad ones. */
export const TARGETS = { p99Ms: 1_000, maxGapMs: 2_000 };

/** The isolation runs as a table; the first run is the baseline the others' throughput is held to. */
export function renderIsolation(runs: readonly IsolationRun[]): string {
  const baseline = runs[0];
  const rows = runs.map((run) => {
    const p = (q: number) => fmt(percentile(run.latencies, q));
    const ratio = run.throughput / baseline.throughput;
    const complete = run.found === run.expected && run.duplicates === 0;
    const ok =
      complete &&
      percentile(run.latencies, 0.99) <= TARGETS.p99Ms &&
      run.maxGapMs <= TARGETS.maxGapMs &&
      ratio >= 0.97;
    return [
      run.label,
      `${fmt(run.found)} / ${fmt(run.expected)}`,
      fmt(run.duplicates),
      `${p(0.5)} / ${p(0.99)} / ${fmt(Math.max(...run.latencies))} at ${fmt(run.worstAtSeconds)} s`,
      fmt(run.maxGapMs),
      `${fmt(run.throughput, 1)} (${fmt(ratio * 100)}%)`,
      `${fmt(run.badStats.arrivals)} / ${fmt(run.badStats.answered)}`,
      `${fmt(run.counters.movedToSlowLane)} / ${fmt(run.counters.timeouts)} / ${fmt(run.counters.circuitsOpened)}`,
      fmt(run.peakRssMiB),
      met(ok),
    ];
  });
  return markdownTable(
    [
      'run',
      'healthy delivered',
      'dupl.',
      'healthy latency p50 / p99 / max (ms), when',
      'longest gap (ms)',
      'healthy payloads/s (of baseline)',
      'bad: requests / answered',
      'moved to slow lane / timeouts / circuits opened',
      'peak RSS (MiB)',
      'targets met',
    ],
    rows,
  );
}

/** The memory run's samples as a table. */
export function renderMemory(samples: readonly MemorySample[]): string {
  return markdownTable(
    ['seconds', 'RSS (MiB)', 'heap used (MiB)', 'payloads waiting (≈)', 'outbox on disk (MiB)'],
    samples.map((s) => [fmt(s.seconds), fmt(s.rssMiB), fmt(s.heapMiB), fmt(s.pending), fmt(s.outboxMiB, 1)]),
  );
}
