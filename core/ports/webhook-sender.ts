/** One HTTP POST of a webhook. */
export type WebhookRequest = {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
};

/** What came of a POST: a status code, or an error before one arrived. */
export type SendResult = {
  /** The HTTP status, when the target answered. */
  status: number | null;
  /** Seconds from a `Retry-After` header (delay-seconds or an HTTP date), when present and valid. */
  retryAfterSeconds: number | null;
  /** Why no status arrived, or why the target was refused (`connection refused`, `timeout after …`, `refused target …`). */
  error: string | null;
  /** Whether the error is the target guard's refusal (never worth retrying against the same address). */
  refusedTarget: boolean;
  /** Whether no complete answer came within the timeout (no status, or a body that never ended). */
  timedOut?: boolean;
  /** The receiver's time: from the moment the request had a connection to the end of the answer. */
  latencyMs: number;
};

/** A `SendResult` from what is known of an attempt: no status, error or Retry-After unless given. */
export function sendResult(outcome: Partial<SendResult>, latencyMs: number): SendResult {
  return { status: null, retryAfterSeconds: null, error: null, refusedTarget: false, ...outcome, latencyMs };
}

/** Sends webhook POSTs; never throws for a failed attempt: it reports it. */
export interface WebhookSender {
  /** POST the body and report what happened. */
  send(request: WebhookRequest): Promise<SendResult>;
}

export const WEBHOOK_SENDER = Symbol.for('stackhooks.WebhookSender');
