import type { DeliveryAttempt, EventFilter, HookRecord } from './api-types.js';

/** A short line per filter: its type and the fields that narrow it. */
export function summarizeFilters(events: readonly EventFilter[]): string {
  if (events.length === 0) return 'no filters';
  return events
    .map((filter) => {
      const narrowing = Object.entries(filter)
        .filter(([name]) => name !== 'type')
        .map(([name, value]) => `${name}=${String(value)}`);
      return narrowing.length > 0 ? `${filter.type} (${narrowing.join(', ')})` : filter.type;
    })
    .join('; ');
}

/** What a hook is called on the page: its name, or (the API takes an empty one) the start of its uuid. */
export function hookLabel(hook: Pick<HookRecord, 'uuid' | 'definition'>): string {
  return hook.definition.name.trim() !== '' ? hook.definition.name : `(unnamed) ${hook.uuid.slice(0, 8)}`;
}

/** A time in the reader's locale, or a dash when there is none. */
export function formatTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  return new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** How long ago `ms` was, from `now`, in the largest fitting unit. */
export function formatAge(ms: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - ms) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return `${Math.floor(seconds / 86_400)} d ago`;
}

/** A count with the reader's digit grouping. */
export function formatCount(value: number): string {
  return value.toLocaleString();
}

/** Whether an attempt failed: no answer, or an answer outside 2xx. */
export function attemptFailed(attempt: DeliveryAttempt): boolean {
  return attempt.error !== null || attempt.status_code === null || attempt.status_code >= 300;
}

/** What an attempt got back: the status code, the error, or both. */
export function describeAttempt(attempt: DeliveryAttempt): string {
  const status = attempt.status_code === null ? null : `HTTP ${attempt.status_code}`;
  if (attempt.error && status !== null)
    return attempt.error.startsWith(status) ? attempt.error : `${status}: ${attempt.error}`;
  if (attempt.error) return attempt.error;
  return status ?? 'no answer';
}
