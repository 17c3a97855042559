import { expect } from 'chai';
import { openFsArchive } from '../../../adapters/archive-fs/index.js';
import type { NormalizedBlock } from '../../../core/chain/block.js';
import { StackhooksError } from '../../../core/hooks/errors.js';
import { diskFaults, withFaultyDisk } from '../../support/faulty-disk.js';
import { expectConsistent, minimalChain } from './archive-check.js';

const FAULTS = diskFaults({
  rooms: [0, 60, 300, 700, 1500, 3000, 6000, 9000],
  writes: [1, 2, 3, 5, 8, 40, 70],
});

describe('openFsArchive under disk faults', () => {
  const { disk, dir } = withFaultyDisk('stackhooks-archive-faults-');
  const chain = minimalChain('faults', 12);

  /** Put blocks in order until one is refused; the refusal must be a 503-kind one. */
  async function putUntilRefused(
    archive: Awaited<ReturnType<typeof openFsArchive>>,
    blocks: NormalizedBlock[],
  ): Promise<number> {
    let acked = 0;
    for (const block of blocks) {
      try {
        await archive.put(block);
        acked++;
      } catch (err) {
        expect(err).to.be.instanceOf(StackhooksError).with.property('code', 'unavailable');
        break;
      }
    }
    return acked;
  }

  for (const fault of FAULTS) {
    it(`keeps every acknowledged block and takes the rest once the disk recovers, after ${fault.name}`, async () => {
      const archive = await openFsArchive(dir(), { checkpointEvery: 1, checkpointAfterMs: 5 });
      for (const block of chain.slice(0, 4)) await archive.put(block);
      fault.inject(disk);
      const acked = 4 + (await putUntilRefused(archive, chain.slice(4, 8)));
      disk.heal();
      // Block processing puts a refused block again, then goes on.
      for (const block of chain.slice(acked)) await archive.put(block);
      await archive.close();
      disk.uninstall();
      const again = await openFsArchive(dir());
      expect(await again.count()).to.equal(12);
      expect((await expectConsistent(again, 1)).hash).to.equal(chain[11].block_identifier.hash);
      await again.close();
      await disk.install();
    });

    it(`keeps every acknowledged block when it stops while the disk still fails, after ${fault.name}`, async () => {
      const archive = await openFsArchive(dir(), { checkpointEvery: 1, checkpointAfterMs: 5 });
      for (const block of chain.slice(0, 4)) await archive.put(block);
      fault.inject(disk);
      const acked = 4 + (await putUntilRefused(archive, chain.slice(4, 8)));
      await archive.close().catch(() => undefined);
      disk.heal();
      disk.uninstall();
      const again = await openFsArchive(dir());
      expect(await again.count()).to.be.at.least(acked);
      const tip = await expectConsistent(again, 1);
      expect(tip.height).to.be.at.least(chain[acked - 1].block_identifier.index);
      for (const block of chain.slice(0, acked)) {
        expect(await again.getByHash(block.block_identifier.hash)).to.deep.equal(block);
      }
      await again.close();
      await disk.install();
    });
  }
});
