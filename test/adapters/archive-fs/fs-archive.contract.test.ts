import { rm } from 'node:fs/promises';
import { openFsArchive } from '../../../adapters/archive-fs/index.js';
import { blockStoreContract } from '../../contracts/block-store.contract.js';
import { makeTempDir } from '../../support/temp-dir.js';

const dirs: string[] = [];

after(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

blockStoreContract('fs archive', async () => {
  const dir = await makeTempDir('stackhooks-archive-');
  dirs.push(dir);
  return openFsArchive(dir);
});

blockStoreContract('fs archive checkpointing after every change, in tiny segments', async () => {
  const dir = await makeTempDir('stackhooks-archive-');
  dirs.push(dir);
  return openFsArchive(dir, { checkpointEvery: 1, segmentBytes: 512 });
});
