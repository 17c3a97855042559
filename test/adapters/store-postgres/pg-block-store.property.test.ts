import { expect } from 'chai';
import fc from 'fast-check';
import { PgBlockStore } from '../../../adapters/store-postgres/pg-block-store.js';
import type { ChainUpdate } from '../../../core/chain/chain-update.js';
import { applyBlockToChain } from '../../../core/chain/canonical-chain.js';
import { alreadyStored } from '../../../core/chain/chain-update.js';
import { MemoryChainView } from '../../../core/chain/memory-chain-view.js';
import { minimalNormalizedBlock } from '../../support/block-builder.js';
import { streams } from '../../support/chain-streams.js';
import { openTestDatabase, postgresAvailable, TEST_DATABASE_URL } from '../../support/postgres.js';

const ORPHANS = { maxHeldOrphans: 3, maxOrphanDepth: 8 };

if (!(await postgresAvailable())) {
  describe('PgBlockStore over random streams', () => {
    it(`needs PostgreSQL at ${TEST_DATABASE_URL}, which did not answer (set STACKHOOKS_TEST_DATABASE_URL)`);
  });
} else {
  describe('PgBlockStore over random streams with gaps and poison', () => {
    it('does what the chain model over maps does, in batches of any size', async function () {
      this.timeout(180_000);
      await fc.assert(
        fc.asyncProperty(streams, fc.integer({ min: 1, max: 6 }), async (stream, size) => {
          const db = await openTestDatabase('blocks_property');
          try {
            const store = new PgBlockStore(db, ORPHANS);
            const view = new MemoryChainView();
            // A store ignores a hash it already holds, even an orphan it dropped.
            const stored = new Set<string>();
            const expected: (ChainUpdate | 'refused')[] = [];
            for (const { header } of stream) {
              if (stored.has(header.hash)) {
                expected.push(alreadyStored());
                continue;
              }
              try {
                expected.push(await applyBlockToChain(view, header, { ...ORPHANS, at: 7 }));
                stored.add(header.hash);
              } catch {
                expected.push('refused');
              }
            }
            // A batch with a refused block is refused whole; its blocks then go one by one.
            const actual: (ChainUpdate | 'refused')[] = [];
            for (let at = 0; at < stream.length; at += size) {
              const batch = stream.slice(at, at + size).map(({ header }) => minimalNormalizedBlock(header));
              try {
                actual.push(...(await store.putMany(batch, { receivedAt: 7 })));
              } catch {
                for (const block of batch) {
                  actual.push(await store.put(block, { receivedAt: 7 }).catch(() => 'refused' as const));
                }
              }
            }
            expect(actual).to.deep.equal(expected);
            expect(await store.tip()).to.deep.equal(await view.tip());
            expect((await store.chainState()).gaps).to.deep.equal(await view.gaps());
            expect((await store.chainState()).heldOrphans).to.equal(await view.orphanCount());
          } finally {
            await db.drop();
          }
        }),
        { numRuns: 25 },
      );
    });
  });
}
