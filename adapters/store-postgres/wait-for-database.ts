import { setTimeout as sleep } from 'node:timers/promises';
import { describeDatabaseError, isConnectionFailure } from './connection-failure.js';

/** The database could not be used at start; the message is one line, fit to print as it is. */
export class DatabaseStartError extends Error {
  override readonly name = 'DatabaseStartError';

  /** `waited`: the database did not answer for the whole wait (a longer wait might have helped). */
  constructor(
    message: string,
    readonly waited: boolean,
  ) {
    super(message);
  }
}

/** One try that failed while waiting, as told to `onWaiting`. */
export type DatabaseWait = {
  /** 1 for the first try. */
  attempt: number;
  /** Why the try failed, one line. */
  error: string;
  /** When the next try starts. */
  retryInMs: number;
  /** How long the wait has lasted so far. */
  waitedMs: number;
};

/** How long to wait for a database that is not there yet, and who to tell of each failed try. */
export type DatabaseWaitOptions = {
  /** The longest wait, in ms; 0 gives up at the first failure. */
  waitMs: number;
  /** Called after each try that failed for lack of a database, before the pause. */
  onWaiting?: (wait: DatabaseWait) => void;
};

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 5_000;

/**
 * Run `attempt` until it succeeds, retrying with back-off while the database cannot be reached (it is
 * starting, or not up yet), for at most `waitMs`. Any other failure (a wrong password, a missing
 * database) ends the wait at once. Both end in a `DatabaseStartError` naming `where`.
 */
export async function waitForDatabase(
  where: string,
  attempt: () => Promise<unknown>,
  options: DatabaseWaitOptions,
): Promise<void> {
  const started = Date.now();
  let delay = FIRST_RETRY_MS;
  for (let tries = 1; ; tries++) {
    try {
      await attempt();
      return;
    } catch (err) {
      const error = describeDatabaseError(err);
      if (!isConnectionFailure(err))
        throw new DatabaseStartError(`PostgreSQL at ${where} refused us: ${error}`, false);
      const waitedMs = Date.now() - started;
      if (waitedMs + delay > options.waitMs) {
        const within = options.waitMs > 0 ? ` within ${options.waitMs / 1000} s` : '';
        throw new DatabaseStartError(`could not reach PostgreSQL at ${where}${within}: ${error}`, true);
      }
      options.onWaiting?.({ attempt: tries, error, retryInMs: delay, waitedMs });
      await sleep(delay);
      delay = Math.min(delay * 2, MAX_RETRY_MS);
    }
  }
}

/** `host:port/database` of a URL, without credentials or parameters: safe to log. */
export function databaseAddress(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
}
