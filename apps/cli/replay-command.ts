import { readReplayTsv, type ReadProgress } from '../../adapters/ingest-stacks-node/index.js';
import type { ProgressLine } from './progress-line.js';
import { megabytes } from './progress-line.js';

/** What a replay did. */
export type ReplaySummary = { posted: number; retries: number; seconds: number };

/**
 * `stackhooks replay FILE --to URL [--rate N]`: POST every line of an event-replay TSV to an event
 * observer, as a node does: in order, each body retried until it gets a 2xx. `rate` caps posts a
 * second (0: as fast as the observer answers).
 */
export async function runReplay(
  file: string,
  options: { to: string; rate: number; progress?: ProgressLine; maxRetryDelayMs?: number },
): Promise<ReplaySummary> {
  const base = options.to.replace(/\/+$/, '');
  const read: ReadProgress = { bytesRead: 0, totalBytes: 0 };
  const started = Date.now();
  let posted = 0;
  let retries = 0;
  for await (const line of readReplayTsv(file, read)) {
    if (options.rate > 0) {
      const due = started + (posted / options.rate) * 1000;
      if (due > Date.now()) await sleep(due - Date.now());
    }
    for (let attempt = 0; ; attempt++) {
      const ok = await post(`${base}${line.path}`, line.body);
      if (ok) break;
      retries++;
      await sleep(Math.min(100 * 2 ** attempt, options.maxRetryDelayMs ?? 5000));
    }
    posted++;
    options.progress?.update(
      (s) =>
        `replay: ${posted} posts, ${(posted / Math.max(s, 0.001)).toFixed(0)}/s, ${megabytes(read.bytesRead)}`,
    );
  }
  options.progress?.update((s) => `replay: ${posted} posts in ${s.toFixed(1)} s, ${retries} retries`, true);
  options.progress?.done();
  return { posted, retries, seconds: (Date.now() - started) / 1000 };
}

async function post(url: string, body: string): Promise<boolean> {
  try {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
