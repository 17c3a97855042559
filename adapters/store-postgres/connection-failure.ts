import { storeUnavailable, StackhooksError } from '../../core/hooks/errors.js';

/**
 * Socket errors that mean the server is not there (yet, or any more), or that this process cannot
 * open a connection now (no local port or file descriptor left), not that a statement failed.
 */
const NETWORK_CODES = new Set([
  'EADDRNOTAVAIL',
  'EMFILE',
  'ENFILE',
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that cannot serve us now: class 08 (connection exception), a backend
 * terminated by an administrator or a shutdown (57P01, 57P02), a server starting up or shutting
 * down (57P03), too many connections (53300), and a read-only server (25006: we reached a replica,
 * as during a failover, before the new primary takes the address).
 */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300', '25006']);

/** What `pg` and `pg-pool` say when a connection dies or cannot be had, without a code. */
const LOST_CONNECTION =
  /Connection terminated|Connection ended unexpectedly|not queryable|timeout exceeded when trying to connect|the database system is (starting up|shutting down|in recovery mode)/i;

/** Whether `err` says the database cannot be reached (a retry may succeed), not that a statement is wrong. */
export function isConnectionFailure(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message, errors } = err as { code?: unknown; message?: unknown; errors?: unknown };
  if (
    typeof code === 'string' &&
    (NETWORK_CODES.has(code) || code.startsWith('08') || SERVER_CODES.has(code))
  )
    return true;
  if (typeof message === 'string' && LOST_CONNECTION.test(message)) return true;
  // A name that resolves to several addresses fails with one error per address.
  return Array.isArray(errors) && errors.length > 0 && errors.every(isConnectionFailure);
}

/**
 * SQLSTATEs of a statement the server could not complete now, on a connection that is fine: the
 * same call may succeed later. A transaction rolled back for a serialization failure or a deadlock
 * (40001, 40P01), a lock not had in time (55P03), a statement cancelled by a timeout or an
 * administrator (57014), a server short of resources (class 53: a full disk 53100, no memory
 * 53200, a configured limit 53400), and an I/O error of the server's own (58000, 58030).
 */
const BUSY_CODES = new Set([
  '40001',
  '40P01',
  '55P03',
  '57014',
  '53000',
  '53100',
  '53200',
  '53400',
  '58000',
  '58030',
]);

/** Whether a statement failed for the server's state, not its own: a retry later may succeed. */
function isServerBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && BUSY_CODES.has(code);
}

/** A short, one-line account of a database error for logs (never sent to API clients). */
export function describeDatabaseError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: unknown }).code;
  const text = err.message || (err instanceof AggregateError ? err.errors.map(String).join('; ') : err.name);
  return typeof code === 'string' && !text.includes(code) ? `${text} (${code})` : text;
}

/**
 * The failure a caller of the store sees: a lost or refused connection, or a statement the server
 * could not complete now (a full disk, a deadlock, a cancelled statement), becomes
 * `storeUnavailable` (the API answers 503 with Retry-After, the observer 503, block processing
 * retries: nothing is given up for it), keeping the driver's error as its cause for logs; any
 * other error is passed on as it is.
 */
export function asStoreFailure(err: unknown): unknown {
  if (err instanceof StackhooksError) return err;
  let reason: string;
  if (isConnectionFailure(err)) reason = 'the database cannot be reached';
  else if (isServerBusy(err))
    reason =
      (err as { code: string }).code === '53100'
        ? 'the database has no disk space left'
        : 'the database could not complete the request now';
  else return err;
  return Object.assign(storeUnavailable(reason), { cause: err });
}
