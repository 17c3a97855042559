import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import fc from 'fast-check';
import type { BlockHeader } from '../../../core/chain/block-header.js';
import { openBlockArchiver } from '../../../apps/server/archiver-container.js';
import { streams, type Delivery } from '../../support/chain-streams.js';
import { makeTempDir } from '../../support/temp-dir.js';

const ZERO = `0x${'0'.repeat(64)}`;

/** A `/new_block` body for a header of the random tree; `unreadable` sends its transaction list as null. */
function bodyOf(header: BlockHeader, unreadable: boolean): string {
  return JSON.stringify({
    block_hash: header.hash,
    block_height: header.height,
    index_block_hash: header.hash,
    parent_block_hash: header.parent_hash,
    parent_index_block_hash: header.parent_hash,
    burn_block_hash: ZERO,
    burn_block_height: 1,
    burn_block_time: 1,
    transactions: unreadable ? null : [],
    events: [],
  });
}

/** A stream of bodies: the deliveries (some sent with an unreadable transaction list) and, here and there, no JSON at all. */
const bodyStreams = streams.chain((stream) =>
  fc
    .record({
      unreadable: fc.array(fc.boolean(), { minLength: stream.length, maxLength: stream.length }),
      garbage: fc.array(fc.nat(stream.length), { maxLength: 3 }),
    })
    .map(({ unreadable, garbage }) => {
      const bodies: { delivery?: Delivery; body: string }[] = stream.map((delivery, i) => ({
        delivery,
        body: bodyOf(delivery.header, unreadable[i]),
      }));
      // Never first: the first body the chain sees is its root.
      for (const at of garbage) bodies.splice(Math.max(at, 1), 0, { body: '{"block_height": ' });
      return bodies;
    }),
);

describe('BlockArchiver over random streams with gaps, poison and unreadable bodies', () => {
  it('never stalls: every poison body is quarantined, and a block first sent above the tip moves the tip to at least its height', async function () {
    this.timeout(180_000);
    await fc.assert(
      fc.asyncProperty(bodyStreams, async (bodies) => {
        const dataDir = await makeTempDir('stackhooks-archiver-property-');
        const { archiver, blocks, close } = await openBlockArchiver({ dataDir, network: 'mainnet' });
        try {
          const sent = new Set<string>();
          let poison = 0;
          for (const [line, { delivery, body }] of bodies.entries()) {
            const before = await blocks.tip();
            const outcome = await archiver.archiveBody({ body, source: { file: 'random.tsv', line } });
            if (delivery === undefined || delivery.poison) {
              poison++;
              expect(outcome.quarantined, `poison at ${line} archived`).to.be.a('string');
              continue;
            }
            expect(outcome.quarantined, `block at ${line} quarantined`).to.equal(undefined);
            const { header } = delivery;
            const above = before === undefined || header.height > before.height;
            if (above && !sent.has(header.hash))
              expect((await blocks.tip())?.height).to.be.at.least(header.height);
            sent.add(header.hash);
          }
          expect((await blocks.chainState(0)).quarantined.count).to.equal(poison);
        } finally {
          await close();
          await rm(dataDir, { recursive: true, force: true });
        }
      }),
      { numRuns: 40 },
    );
  });
});
