/**
 * Seconds to wait from a `Retry-After` value: delay-seconds, or an HTTP date counted from `now`
 * (a date in the past is 0). Null when absent or unreadable, so the retry schedule decides.
 */
export function parseRetryAfter(
  value: string | string[] | undefined,
  now: number = Date.now(),
): number | null {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return null;
  if (/^\d+$/.test(text)) return Number(text);
  // Only dates with words (`Wed, 21 Oct 2015 07:28:00 GMT`): Date.parse would also read "-5" or "2015".
  if (!/[a-z]/i.test(text)) return null;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - now) / 1000));
}
