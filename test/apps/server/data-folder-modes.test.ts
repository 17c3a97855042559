import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { spawnServer } from '../../support/server-process.js';
import { makeTempDir } from '../../support/temp-dir.js';

describe('the data folder after a first start', function () {
  this.timeout(60_000);

  it('is 0700, and the files holding consumer secrets and key hashes are 0600', async () => {
    const base = await makeTempDir('stackhooks-modes-');
    const dataDir = join(base, 'data');
    const server = await spawnServer({ STACKHOOKS_DATA_DIR: dataDir });
    try {
      expect((await stat(dataDir)).mode & 0o777).to.equal(0o700);
      const secretFiles = (await readdir(dataDir)).filter((name) => /^stackhooks.*\.json$/.test(name));
      expect(secretFiles).to.include('stackhooks.json');
      for (const name of secretFiles) {
        expect((await stat(join(dataDir, name))).mode & 0o777, name).to.equal(0o600);
      }
      expect((await stat(join(dataDir, 'stackhooks.lock'))).mode & 0o777).to.equal(0o600);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      await rm(base, { recursive: true, force: true });
    }
  });
});
