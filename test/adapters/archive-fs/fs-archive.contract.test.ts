import { rm } from 'node:fs/promises';
import { openFsArchive } from '../../../adapters/archive-fs/index.js';
import { blockStoreGapContract, type ReopenableStore } from '../../contracts/block-store-gaps.contract.js';
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

/** An archive in a fresh folder that reopens on the same folder. */
async function reopenable(
  dir: string,
  options: Parameters<typeof openFsArchive>[1] = {},
): Promise<ReopenableStore> {
  const archive = await openFsArchive(dir, options);
  return Object.assign(archive, {
    async reopen() {
      await archive.close();
      return reopenable(dir, options);
    },
  });
}

blockStoreGapContract('fs archive', async (orphans) => {
  const dir = await makeTempDir('stackhooks-archive-');
  dirs.push(dir);
  return reopenable(dir, { orphans });
});

blockStoreGapContract('fs archive checkpointing after every change', async (orphans) => {
  const dir = await makeTempDir('stackhooks-archive-');
  dirs.push(dir);
  return reopenable(dir, { orphans, checkpointEvery: 1 });
});
