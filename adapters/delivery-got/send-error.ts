import type { SendResult } from '../../core/ports/webhook-sender.js';

const DNS_FAILURES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NODATA', 'EAI_FAIL', 'EAI_NONAME']);
const SHORT_TEXT: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

/**
 * The short text a delivery log shows for an attempt that got no status (`connection refused`,
 * `timeout after 10000 ms`), and whether it was the target guard's refusal.
 */
export function describeSendError(
  err: unknown,
  host: string,
  timeoutMs: number,
): Pick<SendResult, 'error' | 'refusedTarget' | 'timedOut'> {
  const { code, name, message } = err as { code?: string; name?: string; message?: string };
  if (code === 'ERR_REFUSED_TARGET') return { error: message ?? 'refused target', refusedTarget: true };
  if (name === 'TimeoutError' || code === 'ETIMEDOUT') {
    return { error: `timeout after ${timeoutMs} ms`, refusedTarget: false, timedOut: true };
  }
  if (code && DNS_FAILURES.has(code)) {
    return { error: `DNS lookup failed for ${host} (${code})`, refusedTarget: false };
  }
  if (code && SHORT_TEXT[code]) return { error: SHORT_TEXT[code], refusedTarget: false };
  if (code && /^(CERT_|ERR_TLS_|ERR_SSL_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_)/.test(code)) {
    return { error: `TLS error: ${message}`, refusedTarget: false };
  }
  if (code?.startsWith('HPE_')) return { error: `invalid HTTP response (${code})`, refusedTarget: false };
  return { error: message || String(err), refusedTarget: false };
}
