import { expect } from 'chai';
import { openDatabase } from '../../../adapters/store-postgres/database.js';
import { PgBlockStore } from '../../../adapters/store-postgres/pg-block-store.js';
import type { BlockHeader } from '../../../core/chain/block-header.js';
import type { NormalizedBlock } from '../../../core/chain/block.js';
import type { ChainUpdate } from '../../../core/chain/chain-update.js';
import { StackhooksError } from '../../../core/hooks/errors.js';
import { blockStoreGapContract, type ReopenableStore } from '../../contracts/block-store-gaps.contract.js';
import { blockStoreContract, type BlockStoreSubject } from '../../contracts/block-store.contract.js';
import { ChainBuilder, minimalNormalizedBlock } from '../../support/block-builder.js';
import { describeWithFixtures, readPostedRequests } from '../../support/fixtures.js';
import { openTestDatabase, postgresAvailable, TEST_DATABASE_URL } from '../../support/postgres.js';
import { expectConsistent } from '../archive-fs/archive-check.js';

type TestDatabase = Awaited<ReturnType<typeof openTestDatabase>>;
/** A store on a schema of its own, with the database it uses; `close` drops the schema. */
type Subject = PgBlockStore & BlockStoreSubject & { db: TestDatabase };
type NodeBlockIds = {
  index_block_hash: string;
  block_height: number;
  parent_index_block_hash: string;
  burn_block_time: number;
};

const STACKERDB = 'signer-metrics-api/stackerdb-sample-events.tsv.gz';
const REORG = 'stacks-blockchain-api/mainnet-reorg-scenario1.tsv';

/** A store on a fresh schema of its own, which `close` drops. */
async function openSubject(): Promise<Subject> {
  const db = await openTestDatabase('blocks');
  return Object.assign(new PgBlockStore(db), { db, close: () => db.drop() });
}

/** Every `/new_block` of a recording as a minimal normalized block, in the order the node posted them. */
async function postedBlocks(file: string): Promise<NormalizedBlock[]> {
  const blocks: NormalizedBlock[] = [];
  for (const request of await readPostedRequests(file)) {
    if (request.path !== '/new_block') continue;
    const node = request.body as NodeBlockIds;
    const header = {
      hash: node.index_block_hash,
      height: node.block_height,
      parent_hash: node.parent_index_block_hash,
    };
    blocks.push(minimalNormalizedBlock(header, node.burn_block_time));
  }
  return blocks;
}

/** The blocks in `size`d batches through `putMany`, the updates concatenated. */
async function putInBatches(
  store: PgBlockStore,
  blocks: NormalizedBlock[],
  size: number,
): Promise<ChainUpdate[]> {
  const updates: ChainUpdate[] = [];
  for (let at = 0; at < blocks.length; at += size)
    updates.push(...(await store.putMany(blocks.slice(at, at + size), { receivedAt: 1 })));
  return updates;
}

/** What a reader can see of the chain: tip, count, the canonical hash at every height, each block's status, gaps and held orphans. */
async function chainState(store: PgBlockStore, blocks: NormalizedBlock[]): Promise<unknown> {
  const top = Math.max(...blocks.map((block) => block.block_identifier.index)) + 1;
  const canonical: (string | undefined)[] = [];
  for (let height = 0; height <= top; height++) {
    canonical.push((await store.getCanonicalAt(height))?.block_identifier.hash);
  }
  const status = await Promise.all(blocks.map((block) => store.isCanonical(block.block_identifier.hash)));
  const { gaps, heldOrphans } = await store.chainState();
  return { tip: await store.tip(), count: await store.count(), canonical, status, gaps, heldOrphans };
}

/**
 * A tree with forks above, level with and below the tip, sent out of order (blocks before their
 * parents, some across batch boundaries) and with repeats: every path of the chain model. Its last
 * two blocks are twins (children of one parent) that arrive before that parent, in one batch of 7.
 */
function forkingArrivals(): { arrivals: NormalizedBlock[]; twins: NormalizedBlock[] } {
  const main = new ChainBuilder({ label: 'pg-batch' });
  const built = Array.from({ length: 30 }, () => main.next());
  const side = main.forkFrom(built[9].index_block_hash);
  built.push(...Array.from({ length: 6 }, () => side.next()));
  const lower = main.forkFrom(built[24].index_block_hash);
  built.push(lower.next(), lower.next());
  built.push(...Array.from({ length: 8 }, () => main.next()));
  const sibling = main.forkFrom(built[built.length - 2].index_block_hash);
  built.push(sibling.next());
  const deep = side.forkFrom(built[32].index_block_hash);
  built.push(...Array.from({ length: 4 }, () => deep.next()));
  built.push(deep.next(), deep.forkFrom(built[50].index_block_hash).next());
  const blocks = built.map((block) => minimalNormalizedBlock(block));
  const twins = blocks.slice(51);
  // Deterministic disorder: hold back some blocks past their children, and repeat a few.
  const arrivals = blocks.slice(0, 50);
  for (const [from, to] of [
    [5, 12],
    [20, 22],
    [31, 40],
    [41, 49],
    [15, 16],
  ]) {
    const [moved] = arrivals.splice(from, 1);
    arrivals.splice(to, 0, moved);
  }
  arrivals.splice(27, 0, blocks[3], blocks[26]);
  // Held in this order, so the first twin is the tip once their parent (sent last) connects them.
  arrivals.splice(10, 0, twins[0]);
  arrivals.splice(12, 0, twins[1]);
  arrivals.push(blocks[0], blocks[49], blocks[50]);
  return { arrivals, twins };
}

// Mocha decides what to register when the module loads, so the server is asked here, once.
if (!(await postgresAvailable())) {
  describe('PgBlockStore', () => {
    it(`needs PostgreSQL at ${TEST_DATABASE_URL}, which did not answer (set STACKHOOKS_TEST_DATABASE_URL)`);
  });
} else {
  blockStoreContract('postgres', openSubject);
  blockStoreGapContract('postgres', async (orphans) => {
    const db = await openTestDatabase('blocks');
    const pools: Awaited<ReturnType<typeof openDatabase>>[] = [];
    // A restart is a new pool on the same schema; closing the last one drops the schema.
    const reopenable = (store: PgBlockStore): ReopenableStore =>
      Object.assign(store, {
        close: async () => {
          for (const pool of pools.splice(0)) await pool.close();
          await db.drop();
        },
        reopen: async () => {
          const pool = await openDatabase(db.url);
          pools.push(pool);
          return reopenable(new PgBlockStore(pool, orphans));
        },
      });
    return reopenable(new PgBlockStore(db, orphans));
  });

  describe('PgBlockStore.putMany', () => {
    const opened: Subject[] = [];
    const open = async () => {
      const subject = await openSubject();
      opened.push(subject);
      return subject;
    };

    afterEach(async () => {
      for (const subject of opened.splice(0)) await subject.close();
    });

    it('returns the same updates and leaves the same chain as putting each block in turn', async () => {
      const { arrivals } = forkingArrivals();
      const [one, batched, whole] = [await open(), await open(), await open()];
      const sequential: ChainUpdate[] = [];
      for (const block of arrivals) sequential.push(await one.put(block, { receivedAt: 1 }));
      // The scenario must exercise reorgs, gaps, orphans and repeats, or the comparison proves little.
      const noted = (kind: string) => sequential.some((update) => update.notes?.some((n) => n.kind === kind));
      expect(sequential.some((update) => update.rollback.length > 1)).to.equal(true);
      expect(sequential.some((update) => update.apply.length > 1)).to.equal(true);
      expect(sequential.filter((update) => update.apply.length === 0).length).to.be.at.least(6);
      expect([noted('gap_opened'), noted('gap_closed'), noted('orphan_held')]).to.deep.equal([
        true,
        true,
        true,
      ]);
      expect(await putInBatches(batched, arrivals, 7)).to.deep.equal(sequential);
      expect(await whole.putMany(arrivals, { receivedAt: 1 })).to.deep.equal(sequential);
      const expected = await chainState(one, arrivals);
      expect(await chainState(batched, arrivals)).to.deep.equal(expected);
      expect(await chainState(whole, arrivals)).to.deep.equal(expected);
    });

    it('refuses a whole batch when one block does not follow its parent, storing none of it', async () => {
      const store = await open();
      const chain = new ChainBuilder({ label: 'pg-refuse' });
      const blocks = Array.from({ length: 4 }, () => minimalNormalizedBlock(chain.next()));
      await store.put(blocks[0]);
      const bad = { ...blocks[3], block_identifier: { ...blocks[3].block_identifier, index: 9 } };
      const error = await store.putMany([blocks[1], blocks[2], bad]).catch((err: unknown) => err);
      expect(error).to.be.instanceOf(StackhooksError);
      expect((error as StackhooksError).details[0].field).to.equal('block_identifier.index');
      expect(await store.count()).to.equal(1);
      expect((await store.tip())?.hash).to.equal(blocks[0].block_identifier.hash);
    });

    it('lets two writers on separate pools put the same blocks concurrently, applying each block once', async function () {
      this.timeout(30_000);
      const store = await open();
      const other = await openDatabase(store.db.url);
      try {
        const chain = new ChainBuilder({ label: 'pg-two-writers' });
        const blocks = Array.from({ length: 200 }, () => minimalNormalizedBlock(chain.next()));
        const writers = [store, new PgBlockStore(other)].map(async (writer, w) => {
          const updates: ChainUpdate[] = [];
          for (let at = 0; at < blocks.length; at += 10 + w * 3) {
            const batch = blocks.slice(at, at + 10 + w * 3);
            updates.push(
              ...(w === 0
                ? [await writer.put(batch[0]), ...(await writer.putMany(batch.slice(1)))]
                : await writer.putMany(batch)),
            );
          }
          return updates;
        });
        const updates = (await Promise.all(writers)).flat();
        const applied = updates.flatMap((update) => update.apply.map((header) => header.height));
        expect(applied.sort((a, b) => a - b)).to.deep.equal(
          blocks.map((block) => block.block_identifier.index),
        );
        expect(updates.flatMap((update) => update.rollback)).to.deep.equal([]);
        expect(await store.count()).to.equal(200);
        await expectConsistent(store, 1);
      } finally {
        await other.close();
      }
    });
  });

  describeWithFixtures('PgBlockStore fed the stackerdb recording', () => {
    let store: Subject;
    let blocks: NormalizedBlock[];
    const updates: ChainUpdate[] = [];

    before(async function () {
      this.timeout(120_000);
      store = await openSubject();
      blocks = await postedBlocks(STACKERDB);
      for (const block of blocks) updates.push(await store.put(block, { receivedAt: 1 }));
    });

    after(async () => {
      await store.close();
    });

    it('archives 506 distinct blocks from 801 posts', async () => {
      expect(updates).to.have.length(801);
      expect(await store.count()).to.equal(506);
    });

    it('ends with the whole chain from 0 to 505 canonical, each block applied once and never rolled back', async () => {
      const tip = await expectConsistent(store, 0);
      expect(tip.height).to.equal(505);
      const applied: BlockHeader[] = updates.flatMap((update) => update.apply);
      expect(applied.map((header) => header.height)).to.deep.equal(Array.from({ length: 506 }, (_, h) => h));
      expect(updates.flatMap((update) => update.rollback)).to.deep.equal([]);
    });

    it('gives the same updates through putMany in batches of 100', async function () {
      this.timeout(60_000);
      const batched = await openSubject();
      try {
        expect(await putInBatches(batched, blocks, 100)).to.deep.equal(updates);
      } finally {
        await batched.close();
      }
    });
  });

  describeWithFixtures('PgBlockStore fed the mainnet reorg recording', () => {
    let store: Subject;

    before(async function () {
      this.timeout(60_000);
      store = await openSubject();
      for (const block of await postedBlocks(REORG)) await store.put(block);
    });

    after(async () => {
      await store.close();
    });

    it('keeps the blocks the later blocks build on canonical at 30 and 45, and the last sent at 47, for a new pool', async () => {
      const db = await openDatabase(store.db.url);
      try {
        const reopened = new PgBlockStore(db);
        const canonicalAt = async (height: number) =>
          (await reopened.getCanonicalAt(height))?.block_identifier.hash;
        expect(await canonicalAt(30)).to.equal(
          '0x101dc10b0ffda670c34c603ac0ef3f251c3f5b5ca310ec624fb9b32d19d5836c',
        );
        expect(await canonicalAt(45)).to.equal(
          '0x9cb73562d8eabb0cd991f23eac7de8402de27408e40b9827b33854f54e0a46f5',
        );
        expect(await canonicalAt(47)).to.equal(
          '0x68fb02f8c3b14fee8e8d26f1985439c67d07d999f9831a3a258bdf912ac361df',
        );
        for (const loser of [
          '0x65549af908664382673292297d6fad1353b23b8ebff8e69d4b6bef662c621f46',
          '0x5b3b7490ce5ad15777164ebaae194b01b59f6dd876bca2ca899f29cd797dfa62',
          '0x4f6dc8e302792fe2e3c5b66ae29db7d6170baa0e2120fb8f7b3c3956bbc3901c',
        ]) {
          expect(await reopened.isCanonical(loser), loser).to.equal(false);
        }
        expect(await reopened.count()).to.equal(50);
        await expectConsistent(reopened, 1);
      } finally {
        await db.close();
      }
    });
  });
}
