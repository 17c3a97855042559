import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import { bigBlockBody, postAsNode, residentMemory } from '../../support/big-posts.js';
import { freePort, spawnServer } from '../../support/server-process.js';
import { makeTempDir } from '../../support/temp-dir.js';

// Before the bound, ten such posts took the server from about 200 MB to 2.1 GB.
const CEILING_MIB = 1536;

describe('the observer under big bodies', function () {
  this.timeout(600_000);

  it('keeps the server under a generous memory ceiling through ten concurrent 60 MiB posts, storing all', async () => {
    const dataDir = await makeTempDir('stackhooks-observer-memory-');
    const observerPort = await freePort();
    const server = await spawnServer({
      STACKHOOKS_DATA_DIR: dataDir,
      STACKHOOKS_OBSERVER_PORT: String(observerPort),
    });
    try {
      const body = bigBlockBody(60 * 1024 * 1024);
      const results = await Promise.all(
        Array.from({ length: 10 }, () => postAsNode(`http://127.0.0.1:${observerPort}/new_block`, body)),
      );
      expect(results.map((r) => r.status)).to.deep.equal(Array(10).fill(200));
      expect(
        results.some((r) => r.refusals > 0),
        'some posts waited their turn',
      ).to.equal(true);
      expect(residentMemory(server.child.pid as number).peakMiB).to.be.below(CEILING_MIB);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
