import { counter, gauge, type Figure } from '../../adapters/metrics-prometheus/index.js';
import type { BlockProcessing } from './block-processing.js';

/** The figures of an ingest process's block processing: whether it holds the lock, and its counters. */
export function blockProcessingFigures(processing: BlockProcessing): Figure[] {
  return [
    gauge(
      'stackhooks_ingest_active',
      'Whether this process holds the ingest lock and processes blocks (1) or not (0)',
      () => (processing.active ? 1 : 0),
    ),
    counter(
      'stackhooks_ingest_lock_acquisitions_total',
      'Times this process took the ingest lock',
      () => processing.counters.lockAcquisitions,
    ),
    counter(
      'stackhooks_ingest_lock_losses_total',
      'Times this process lost the ingest lock with its database connection',
      () => processing.counters.lockLosses,
    ),
    counter(
      'stackhooks_ingest_retries_total',
      'Processing runs that failed and were retried',
      () => processing.counters.retries,
    ),
  ];
}
