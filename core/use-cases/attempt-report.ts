import type { Lane } from '../delivery/delivery-lanes.js';
import type { DeliveryKind } from '../delivery/delivery-record.js';
import type { Logger } from '../ports/logger.js';

/** One webhook attempt that was sent, and what the retry policy made of it: for logs and metrics. */
export type AttemptReport = {
  hook: string;
  payload: string;
  kind: DeliveryKind;
  /** This attempt's number (1 = the first) and how many the retry schedule allows. */
  attempt: number;
  of: number;
  /** The receiver's HTTP status, or null when none came (`error` says why). */
  status: number | null;
  error: string | null;
  timedOut: boolean;
  latencyMs: number;
  lane: Lane;
  /** Delivered, to be tried again at `nextAttemptAt` (ms), or given up on. */
  outcome: 'delivered' | 'retrying' | 'failed';
  nextAttemptAt?: number;
};

/** Log an attempt: every one at debug, a failed one at warn with when it is tried next. */
export function logAttempt(logger: Logger, report: AttemptReport): void {
  const fields = {
    hook: report.hook,
    payload: report.payload,
    attempt: report.attempt,
    of: report.of,
    status: report.status,
  };
  logger.debug('delivery attempt', {
    ...fields,
    outcome: report.outcome,
    latency_ms: report.latencyMs,
    lane: report.lane,
    kind: report.kind,
  });
  if (report.outcome === 'delivered') return;
  logger.warn('delivery attempt failed', {
    ...fields,
    error: report.error,
    // Milliseconds since the epoch, as the delivery log shows it.
    next_attempt_at: report.nextAttemptAt ?? null,
    ...(report.outcome === 'failed' && { gave_up: true }),
  });
}
