import type { Readiness } from '../../core/health/readiness.js';
import type { BlockStore } from '../../core/ports/block-store.js';
import type { Clock } from '../../core/ports/clock.js';
import type { EventLog } from '../../core/ports/event-log.js';
import { readIngestProgress, type IngestProgress } from '../../core/use-cases/ingest-progress.js';
import { sharedRead } from '../../adapters/metrics-prometheus/index.js';
import { checkReadiness } from './readiness-check.js';
import { instrumentStackhooks, type MetricSources, type StackhooksMetrics } from './service-metrics.js';

/** What an operator sees of an instance: where block processing stands, readiness, and metrics. */
export type OperatorView = {
  /** A fresh read of the stores: the tip, the entries, the last block's time and the lag. */
  ingestProgress(): Promise<IngestProgress>;
  /** What `GET /ready` answers. */
  readiness(): Promise<Readiness>;
  metrics: StackhooksMetrics;
};

/** What the view is built from: the metric sources it reads itself are left out. */
export type OperatorViewSources = Omit<MetricSources, 'now' | 'startedAt' | 'progress' | 'chainState'> & {
  blocks: BlockStore;
  eventLog: EventLog;
  clock: Clock;
  /** Where blocks are fed in: readiness fails after this long without one (0 or absent: never). */
  maxBlockAgeMs?: number;
};

/** Build the view of an instance; its age of the last block counts from now before the first block. */
export function operatorView(sources: OperatorViewSources): OperatorView {
  const { blocks, eventLog, clock, maxBlockAgeMs, ...metricSources } = sources;
  const now = () => clock.now();
  const startedAt = now();
  const ingestProgress = () => readIngestProgress(eventLog, blocks, now());
  const readiness = () =>
    checkReadiness({
      progress: ingestProgress,
      conditions: sources.conditions,
      now,
      stall: maxBlockAgeMs ? { maxAgeMs: maxBlockAgeMs, startedAt } : undefined,
    });
  const metrics = instrumentStackhooks({
    ...metricSources,
    now,
    startedAt,
    // One read of the stores per scrape, shared by the figures that need it.
    progress: sharedRead(ingestProgress),
    chainState: sharedRead(() => blocks.chainState(0)),
  });
  return { ingestProgress, readiness, metrics };
}
