import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const CHECKPOINT_FILE = 'processed.json';

type Checkpoint = { processed: number; note?: string };

/** The processed mark and its note, as last written (nothing processed when there is none). */
export async function readCheckpoint(dir: string): Promise<Checkpoint> {
  try {
    return JSON.parse(await readFile(join(dir, CHECKPOINT_FILE), 'utf8')) as Checkpoint;
  } catch {
    return { processed: 0 };
  }
}

/** Replace the processed mark atomically (temp file, then rename). */
// A killed process leaves the old mark or the new one. It is not fsynced (one per entry would slow the stream): after a power loss the mark
// may lag, and entries are processed again, which is idempotent.
export async function writeCheckpoint(
  dir: string,
  processed: number,
  note: string | undefined,
): Promise<void> {
  const temp = join(dir, `${CHECKPOINT_FILE}.tmp`);
  await writeFile(temp, JSON.stringify({ processed, note }));
  await rename(temp, join(dir, CHECKPOINT_FILE));
}
