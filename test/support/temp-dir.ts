import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Make a fresh temporary folder. */
export async function makeTempDir(prefix = 'stackhooks-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}
