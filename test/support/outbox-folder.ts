import { readdir, rm } from 'node:fs/promises';
import { openFsOutbox, type FsOutbox, type FsOutboxOptions } from '../../adapters/outbox/index.js';
import { makeTempDir } from './temp-dir.js';

/** The journal generations in an outbox folder, oldest first (not those set aside for removal). */
export const journals = async (dir: string) =>
  (await readdir(dir)).filter((n) => /^journal-\d+\.log$/.test(n)).sort();

/** Give each test a fresh outbox folder (handed to `use`) and an open on it; close and remove all after. */
export function outboxFolderPerTest(
  use: (dir: string) => void,
): (options?: FsOutboxOptions) => Promise<FsOutbox> {
  let dir: string;
  const opened: FsOutbox[] = [];
  beforeEach(async () => {
    dir = await makeTempDir('stackhooks-outbox-');
    use(dir);
  });
  afterEach(async () => {
    for (const outbox of opened.splice(0)) await outbox.close();
    await rm(dir, { recursive: true, force: true });
  });
  return async (options) => {
    const outbox = await openFsOutbox(dir, options);
    opened.push(outbox);
    return outbox;
  };
}
