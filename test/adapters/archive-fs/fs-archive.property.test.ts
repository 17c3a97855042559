import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import fc from 'fast-check';
import { openFsArchive } from '../../../adapters/archive-fs/index.js';
import { applyBlockToChain } from '../../../core/chain/canonical-chain.js';
import { alreadyStored } from '../../../core/chain/chain-update.js';
import { MemoryChainView } from '../../../core/chain/memory-chain-view.js';
import { minimalNormalizedBlock } from '../../support/block-builder.js';
import { streams } from '../../support/chain-streams.js';
import { makeTempDir } from '../../support/temp-dir.js';

const ORPHANS = { maxHeldOrphans: 3, maxOrphanDepth: 8 };

/** What a put did, comparable between stores: the update, or that it was refused. */
async function outcome(work: () => Promise<unknown>): Promise<unknown> {
  try {
    return await work();
  } catch (err) {
    return { refused: (err as Error).name };
  }
}

describe('the fs archive over random streams with gaps and poison', () => {
  it('does what the chain model over maps does, through checkpoints and a reopen', async function () {
    this.timeout(120_000);
    await fc.assert(
      fc.asyncProperty(
        streams,
        fc.nat(),
        fc.integer({ min: 1, max: 4000 }),
        async (stream, reopenAt, rangeReadBytes) => {
          const dir = await makeTempDir('stackhooks-archive-property-');
          const options = { checkpointEvery: 5, orphans: ORPHANS, rangeReadBytes };
          let archive = await openFsArchive(dir, options);
          try {
            const view = new MemoryChainView();
            // A store ignores a hash it already holds, even an orphan it dropped; the model alone would hold it again.
            const stored = new Set<string>();
            for (let i = 0; i < stream.length; i++) {
              if (i === reopenAt % stream.length) {
                await archive.close();
                archive = await openFsArchive(dir, options);
              }
              const { header } = stream[i];
              const expected = stored.has(header.hash)
                ? alreadyStored()
                : await outcome(() => applyBlockToChain(view, header, { ...ORPHANS, at: 7 }));
              if (!(expected as { refused?: string }).refused) stored.add(header.hash);
              const actual = await outcome(() =>
                archive.put(minimalNormalizedBlock(header), { receivedAt: 7 }),
              );
              expect(actual, `delivery ${i}`).to.deep.equal(expected);
            }
            expect(await archive.tip()).to.deep.equal(await view.tip());
            expect((await archive.chainState()).gaps).to.deep.equal(await view.gaps());
            for (const [height, hash] of view.canonical) {
              expect((await archive.getCanonicalAt(height))?.block_identifier.hash).to.equal(hash);
            }
            // The range read, across gaps, switches and checkpoints, agrees with the model height by height,
            // read on after each answer (as many blocks as rangeReadBytes of records hold, one at least).
            const top = ((await view.tip())?.height ?? 0) + 1;
            const range: (string | undefined)[] = [];
            while (range.length <= top) {
              const answer = await archive.canonicalRange(range.length, top);
              expect(answer.length).to.be.greaterThan(0);
              range.push(...answer.map((block) => block?.block_identifier.hash));
            }
            const expectedRange = Array.from({ length: top + 1 }, (_, height) => view.canonical.get(height));
            expect(range).to.deep.equal(expectedRange);
          } finally {
            await archive.close();
            await rm(dir, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
