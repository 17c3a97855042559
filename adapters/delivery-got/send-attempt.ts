import { performance } from 'node:perf_hooks';
import { sendResult, type SendResult, type WebhookRequest } from '../../core/ports/webhook-sender.js';
import { parseRetryAfter } from './retry-after.js';
import { describeSendError } from './send-error.js';
import { addressRefusal, literalAddress, type HostLookup } from './target-resolution.js';

/** How a webhook sender connects and what it lets through. */
export type WebhookSenderOptions = {
  /** Let webhooks reach loopback, private, link-local and metadata addresses (development only). */
  allowPrivateTargets: boolean;
  /** Resolves host names; `dns.lookup` with every address unless a test injects one. */
  lookup?: HostLookup;
  /**
   * Open connections per origin; more requests wait for a free one (default: no limit, so an
   * attempt never waits: the dispatcher's lanes bound how many are in flight). A wait for a
   * socket is not the receiver's time: the attempt's timeout starts once the request has one.
   */
  maxSocketsPerOrigin?: number;
  /** The most of a response body read before the connection is dropped. */
  maxBodyBytes?: number;
};

/** What a completed exchange got: the status and the raw `Retry-After` header. */
export type Answer = { status: number; retryAfter: string | string[] | undefined };

/**
 * One POST over some HTTP client. It resolves once the answer's body has ended (or was cut at the
 * cap) and rejects with the client's error otherwise; it moves `clock.started` to the moment the
 * request has a socket, where the receiver's time (and the timeout) starts.
 */
export type Exchange = (url: URL, request: WebhookRequest, clock: { started: number }) => Promise<Answer>;

/** Receivers answer with a status; their body is only read so the connection can be reused. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

/**
 * One webhook attempt, whatever the client: a URL that can never be sent to, or an IP literal the
 * guard refuses, is reported as a refused target without connecting (sockets skip the lookup for
 * a literal, so the guard checks literals here); otherwise the exchange's answer or its error is
 * reported, with the receiver's time.
 */
export async function attemptSend(
  request: WebhookRequest,
  allowPrivateTargets: boolean,
  exchange: Exchange,
): Promise<SendResult> {
  const clock = { started: performance.now() };
  const report = (outcome: Partial<SendResult>): SendResult =>
    sendResult(outcome, Math.round(performance.now() - clock.started));
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return report({ error: `invalid URL ${request.url}`, refusedTarget: true });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return report({ error: `unsupported scheme ${url.protocol} (use http or https)`, refusedTarget: true });
  }
  const literal = literalAddress(url);
  if (literal && !allowPrivateTargets) {
    const refusal = addressRefusal(url.hostname, [literal]);
    if (refusal) return report({ error: refusal, refusedTarget: true });
  }
  try {
    const answer = await exchange(url, request, clock);
    return report({ status: answer.status, retryAfterSeconds: parseRetryAfter(answer.retryAfter) });
  } catch (err) {
    return report(describeSendError(err, url.hostname, request.timeoutMs));
  }
}
