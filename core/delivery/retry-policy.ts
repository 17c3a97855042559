/** The default wait before each attempt: at once, then 1 s, 5 s, 30 s, 2 min, 10 min, 30 min, 1 h. */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [
  0, 1_000, 5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000,
];

/** Waits are spread ±20% so that a target that comes back is not hit by every retry at once. */
export const JITTER = 0.2;

/** The longest `Retry-After` honoured, so a target cannot park a hook's queue for days. */
export const MAX_RETRY_AFTER_MS = 3_600_000;

/** What an attempt returned, as far as the retry decision cares. */
export type AttemptResult = {
  status: number | null;
  retryAfterSeconds: number | null;
  /** The target guard refused the address the host resolved to. */
  refusedTarget: boolean;
  error: string | null;
};

/** What to do after an attempt. */
export type NextStep =
  { kind: 'delivered' } | { kind: 'retry'; delayMs: number } | { kind: 'give_up'; reason: string };

/** Whether an HTTP status counts as success: a 2xx. */
export function isSuccess(status: number | null): boolean {
  return status !== null && status >= 200 && status < 300;
}

/** A short account of a failed attempt for the delivery log. */
export function describeFailure(result: AttemptResult): string {
  return result.error ?? `HTTP ${result.status}`;
}

/**
 * Decide after attempt number `attempt` (1 = the first). A 2xx is delivered; a 410 Gone or a refused
 * target gives up at once; otherwise wait the schedule's next step (jittered by `random()` in
 * [0, 1)), at least the `Retry-After` of a 429 or 503 (capped at an hour), until the schedule is used up.
 */
export function nextStep(
  result: AttemptResult,
  attempt: number,
  schedule: readonly number[] = DEFAULT_RETRY_SCHEDULE_MS,
  random: () => number = () => 0.5,
): NextStep {
  if (isSuccess(result.status)) return { kind: 'delivered' };
  if (result.status === 410) return { kind: 'give_up', reason: 'the target answered 410 Gone' };
  if (result.refusedTarget) return { kind: 'give_up', reason: describeFailure(result) };
  if (attempt >= schedule.length) {
    return { kind: 'give_up', reason: `${attempt} attempts failed; the last: ${describeFailure(result)}` };
  }
  const base = schedule[attempt];
  let delayMs = Math.round(base * (1 - JITTER + 2 * JITTER * random()));
  if ((result.status === 429 || result.status === 503) && result.retryAfterSeconds !== null) {
    delayMs = Math.max(delayMs, Math.min(result.retryAfterSeconds * 1000, MAX_RETRY_AFTER_MS));
  }
  return { kind: 'retry', delayMs };
}
