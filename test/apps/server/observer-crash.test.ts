import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import { sampleDefinition } from '../../support/definitions.js';
import { TEST_API_KEY } from '../../support/api-server.js';
import { ChainBuilder, TEST_KEYS, addressOf, stxTransfer } from '../../support/block-builder.js';
import { freePort, spawnServer } from '../../support/server-process.js';
import { send } from '../../support/raw-http.js';
import { makeTempDir } from '../../support/temp-dir.js';

const key = TEST_API_KEY;

async function archivedBlocks(baseUrl: string): Promise<number> {
  return (await send(baseUrl, 'GET', '/chainhooks/v1')).body.archived_blocks as number;
}

describe('observer crash safety', function () {
  this.timeout(120_000);

  it('archives every block that got a 200, exactly once, after a SIGKILL during the posts', async () => {
    const chain = new ChainBuilder();
    const transfer = await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: 1n });
    const blocks = Array.from({ length: 400 }, () => chain.next({ transactions: [transfer] }));
    const dataDir = await makeTempDir();
    const observerPort = String(await freePort());
    const env = {
      STACKHOOKS_DATA_DIR: dataDir,
      STACKHOOKS_API_KEY: key,
      STACKHOOKS_OBSERVER_PORT: observerPort,
    };
    const first = await spawnServer(env);
    const acked: string[] = [];
    try {
      for (const block of blocks) {
        const res = await fetch(`http://127.0.0.1:${observerPort}/new_block`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(block),
        }).catch(() => undefined);
        if (res?.status !== 200) break;
        acked.push(block.index_block_hash);
        if (acked.length === 150) first.child.kill('SIGKILL');
      }
    } finally {
      first.child.kill('SIGKILL');
      await first.exited;
    }
    expect(acked.length).to.be.within(150, 399);

    const second = await spawnServer(env);
    try {
      const deadline = Date.now() + 30_000;
      while ((await archivedBlocks(second.baseUrl)) < acked.length && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
      }
      const count = await archivedBlocks(second.baseUrl);
      // A block stored but cut off before its 200 may be there too; nothing else may.
      expect(count).to.be.within(acked.length, acked.length + 1);
      const { body: hook } = await send(second.baseUrl, 'POST', '/chainhooks/me', {
        key,
        body: JSON.stringify(sampleDefinition()),
      });
      for (const hash of [acked[0], acked[74], acked[acked.length - 1]]) {
        const res = await send(second.baseUrl, 'POST', `/chainhooks/me/${hook.uuid}/evaluate`, {
          key,
          body: JSON.stringify({ index_block_hash: hash }),
        });
        expect(res.status, `block ${hash} is archived`).to.equal(204);
      }
      const status = await send(second.baseUrl, 'GET', '/chainhooks/v1');
      expect(status.body.chain_tip.block_height).to.equal(count);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
