import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FsEventLog } from '../../adapters/event-log-fs/index.js';

/** Segment bytes small enough that a test fills several segments with a few hundred entries. */
export const SMALL_SEGMENT_BYTES = 64 * 1024;

/** The sizes of the event log's segment files in `dir`, oldest first. */
export async function segmentFileSizes(dir: string): Promise<number[]> {
  const names = (await readdir(dir)).filter((n) => /^\d{20}\.log$/.test(n)).sort();
  return Promise.all(names.map(async (n) => (await stat(join(dir, n))).size));
}

/**
 * Append entries of about a kilobyte, a few milliseconds apart (so the zeros are written between
 * them), until two segments of the log in `dir` were written full of zeros ahead; the bodies.
 * Throws when that never happens: the log did not prepare its segments.
 */
export async function appendIntoZeroFilledSegments(log: FsEventLog, dir: string): Promise<string[]> {
  const bodies: string[] = [];
  for (let i = 0; i < 2000; i++) {
    const body = JSON.stringify({ i, pad: 'z'.repeat(1000 + (i % 7) * 100) });
    await log.append('/new_block', body, i);
    bodies.push(body);
    const zeroFilled = (await segmentFileSizes(dir)).filter((s) => s === SMALL_SEGMENT_BYTES).length;
    if (zeroFilled >= 2) return bodies;
    await sleep(3);
  }
  throw new Error('no two segments were written full of zeros ahead in 2,000 entries');
}
