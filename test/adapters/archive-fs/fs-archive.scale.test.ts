import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
// The archive at volume: 200,000 blocks must not be held in memory. Speed is not asserted here: the
// run time mocha prints gives the put rate recorded in docs/architecture.md.
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import { openFsArchive } from '../../../adapters/archive-fs/index.js';
import type { NormalizedBlock } from '../../../core/chain/block.js';
import { minimalNormalizedBlock } from '../../support/block-builder.js';
import { makeTempDir } from '../../support/temp-dir.js';

const BLOCKS = 200_000;
const SIDE_EVERY = 10_000;
const MIB = 1024 * 1024;

const mainHash = (height: number): string =>
  `0x${createHash('sha256').update(`main ${height}`).digest('hex')}`;
const sideHash = (height: number): string =>
  `0x${createHash('sha256').update(`side ${height}`).digest('hex')}`;

function block(height: number, hash: string, parent: string): NormalizedBlock {
  return minimalNormalizedBlock({ hash, height, parent_hash: parent }, 1_700_000_000 + height);
}

const collect = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

/** Bytes of heap still reachable after a full garbage collection. */
function liveHeap(): number {
  collect();
  return process.memoryUsage().heapUsed;
}

describe('fs archive at volume', () => {
  let dir: string;

  before(async () => {
    dir = await makeTempDir('stackhooks-archive-scale-');
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('archives 200,000 blocks with side branches while its memory stays bounded', async function () {
    this.timeout(900_000);
    const archive = await openFsArchive(dir);
    // Live heap after a full collection: RSS counts collector slack and other suites' leftovers.
    const baseline = liveHeap();
    let peak = baseline;
    for (let height = 1; height <= BLOCKS; height++) {
      await archive.put(block(height, mainHash(height), mainHash(height - 1)));
      if (height % SIDE_EVERY === 0) {
        // A two-block side branch from two below the tip: each of its blocks becomes the tip on arrival
        // (the first a switch to a lower block), and the next main block switches back.
        await archive.put(block(height - 1, sideHash(height - 1), mainHash(height - 2)));
        await archive.put(block(height, sideHash(height), sideHash(height - 1)));
      }
      if (height % 25_000 === 0) peak = Math.max(peak, liveHeap());
    }
    await archive.close();
    // The overlay holds at most one checkpoint's changes (a few MB); 200,000 blocks kept in memory
    // would be hundreds of MB.
    expect((peak - baseline) / MIB, 'live heap growth in MiB').to.be.below(64);

    const again = await openFsArchive(dir);
    expect(await again.count()).to.equal(BLOCKS + (2 * BLOCKS) / SIDE_EVERY);
    // The last side branch arrived after the last main block, so it ends canonical.
    expect((await again.tip())?.hash).to.equal(sideHash(BLOCKS));
    expect((await again.getCanonicalAt(BLOCKS - 1))?.block_identifier.hash).to.equal(sideHash(BLOCKS - 1));
    expect(await again.isCanonical(mainHash(BLOCKS))).to.equal(false);
    for (let i = 0; i < 1000; i++) {
      const height = 1 + ((i * 7919) % (BLOCKS - 2));
      expect((await again.getCanonicalAt(height))?.block_identifier.hash).to.equal(mainHash(height));
    }
    expect(await again.isCanonical(sideHash(SIDE_EVERY))).to.equal(false);
    expect(await again.isCanonical(mainHash(SIDE_EVERY))).to.equal(true);
    expect((await again.getByHash(sideHash(SIDE_EVERY)))?.block_identifier.index).to.equal(SIDE_EVERY);
    await again.close();
  });
});
