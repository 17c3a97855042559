import { readReplayTsv, type ReadProgress } from '../../adapters/ingest-stacks-node/index.js';
import type { ProgressLine } from './progress-line.js';
import { counted, megabytes } from './progress-line.js';

/** What a replay did. */
export type ReplaySummary = { posted: number; retries: number; seconds: number };

/** How a replay posts. */
export type ReplayOptions = {
  /** The observer's base URL (`http://127.0.0.1:20455`); each line's path is added to it. */
  to: string;
  /** Posts a second at most (0: as fast as the observer answers). */
  rate: number;
  /** How long one post is retried while the observer cannot be reached or answers 5xx, in ms (default 30 s). */
  retryFor?: number;
  progress?: ProgressLine;
  /** Longest wait between two tries of one post, in ms (default 5 s). */
  maxRetryDelayMs?: number;
  /** How long one post may wait for its answer, in ms (default 30 s). */
  requestTimeoutMs?: number;
};

/** A replay that stopped: the observer refused a post, or could not be reached for the whole retry time. */
export class ReplayError extends Error {
  override readonly name = 'ReplayError';
}

/** What one post got: taken, worth trying again (no answer, a 5xx, a 429), or refused for good (a 4xx). */
type PostOutcome =
  { kind: 'taken' } | { kind: 'retry'; problem: string } | { kind: 'refused'; problem: string };

/**
 * `stackhooks replay FILE --to URL [--rate N]`: POST every line of an event-replay TSV to an event
 * observer, as a node does: in order, each body tried again until it is taken. Unlike a node it
 * gives up: a post the observer refuses (a 4xx) ends the replay at once, and one it cannot take
 * (no connection, no answer, a 5xx) is retried with back-off for `retryFor`, then the replay ends
 * with an error naming the URL. Progress is redrawn every second, even while one post waits.
 */
export async function runReplay(file: string, options: ReplayOptions): Promise<ReplaySummary> {
  const base = options.to.replace(/\/+$/, '');
  const retryFor = options.retryFor ?? 30_000;
  const read: ReadProgress = { bytesRead: 0, totalBytes: 0, textBytes: 0 };
  const started = Date.now();
  let posted = 0;
  let retries = 0;
  let trouble: { problem: string; since: number } | undefined;
  const show = (force = false) =>
    options.progress?.update((s) => {
      const line = `replay: ${counted(posted, 'post')}, ${(posted / Math.max(s, 0.001)).toFixed(0)}/s, ${megabytes(read.textBytes)}`;
      if (!trouble) return line;
      return `${line}; retrying for ${((Date.now() - trouble.since) / 1000).toFixed(0)} s: ${trouble.problem}`;
    }, force);
  const ticker = setInterval(() => show(true), 1000);
  try {
    for await (const line of readReplayTsv(file, read)) {
      if (options.rate > 0) {
        const due = started + (posted / options.rate) * 1000;
        if (due > Date.now()) await sleep(due - Date.now());
      }
      const url = `${base}${line.path}`;
      for (let attempt = 0; ; attempt++) {
        const outcome = await post(url, line.body, options.requestTimeoutMs ?? 30_000);
        if (outcome.kind === 'taken') break;
        const stoppedAt = `stopped at line ${line.line} after ${counted(posted, 'post')}`;
        if (outcome.kind === 'refused')
          throw new ReplayError(`${url} refused a post: ${outcome.problem}; ${stoppedAt}`);
        trouble ??= { problem: outcome.problem, since: Date.now() };
        trouble.problem = outcome.problem;
        const waited = Date.now() - trouble.since;
        if (waited >= retryFor) {
          throw new ReplayError(
            `cannot post to ${url}: ${outcome.problem} (tried for ${(waited / 1000).toFixed(0)} s); ${stoppedAt}`,
          );
        }
        retries++;
        show();
        await sleep(Math.min(100 * 2 ** attempt, options.maxRetryDelayMs ?? 5000, retryFor - waited));
      }
      trouble = undefined;
      posted++;
      show();
    }
  } finally {
    clearInterval(ticker);
  }
  options.progress?.update(
    (s) => `replay: ${counted(posted, 'post')} in ${s.toFixed(1)} s, ${counted(retries, 'retry', 'retries')}`,
    true,
  );
  options.progress?.done();
  return { posted, retries, seconds: (Date.now() - started) / 1000 };
}

async function post(url: string, body: string, timeoutMs: number): Promise<PostOutcome> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    // fetch never connects to a few ports (SMTP's, X11's, …): trying again cannot help.
    if (err instanceof Error && (err.cause as Error | undefined)?.message === 'bad port')
      return { kind: 'refused', problem: 'fetch does not connect to that port' };
    return { kind: 'retry', problem: describeFailure(err, timeoutMs) };
  }
  const text = await res.text().catch(() => '');
  if (res.ok) return { kind: 'taken' };
  const problem = `${res.status} ${res.statusText}${text ? `: ${text.slice(0, 200).trim()}` : ''}`;
  // A 4xx says the post itself is wrong (or goes to the wrong place): posting it again changes nothing.
  // 408 and 429 are the exceptions that ask for another try.
  const retryable = res.status >= 500 || res.status === 408 || res.status === 429;
  return retryable ? { kind: 'retry', problem } : { kind: 'refused', problem };
}

/** Why a post got no answer, in words: "connection refused", "no answer within 30 s", … */
function describeFailure(err: unknown, timeoutMs: number): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError'))
    return `no answer within ${timeoutMs / 1000} s`;
  const cause =
    err instanceof Error ? (err.cause as { code?: string; message?: string } | undefined) : undefined;
  switch (cause?.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ENOTFOUND':
      return 'host not found';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
  }
  return cause?.message ?? (err instanceof Error ? err.message : String(err));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
