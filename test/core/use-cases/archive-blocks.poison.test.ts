import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import type { ReceivedBody } from '../../../core/use-cases/archive-blocks.js';
import { openBlockArchiver, type OpenArchiver } from '../../../apps/server/archiver-container.js';
import {
  ChainBuilder,
  TEST_KEYS,
  addressOf,
  stxTransfer,
  type NodeBlock,
} from '../../support/block-builder.js';
import {
  atHeight,
  cycle,
  ownParent,
  squatting,
  withUndecodableTransaction,
} from '../../support/poison-bodies.js';
import { dropSchema, freshSchemaUrl, postgresAvailable } from '../../support/postgres.js';
import { makeTempDir } from '../../support/temp-dir.js';

const line = (block: object | string, n: number): ReceivedBody => ({
  body: typeof block === 'string' ? block : JSON.stringify(block),
  source: { file: 'chain.tsv', line: n },
});

function poisonSuite(name: string, onPostgres: boolean) {
  describe(`BlockArchiver with poison and unreadable bodies (${name})`, function () {
    this.timeout(60_000);
    let dataDir: string;
    let databaseUrl: string | undefined;
    let opened: OpenArchiver;
    beforeEach(async () => {
      dataDir = await makeTempDir();
      databaseUrl = onPostgres ? freshSchemaUrl('archive_poison') : undefined;
      opened = await openBlockArchiver({ dataDir, network: 'mainnet', databaseUrl });
    });
    afterEach(async () => {
      await opened.close();
      if (databaseUrl) await dropSchema(databaseUrl);
      await rm(dataDir, { recursive: true, force: true });
    });

    it('quarantines each poison body of a run with its reason and line, and archives the good blocks around it', async () => {
      const chain = new ChainBuilder();
      const good: NodeBlock[] = [chain.next(), chain.next(), chain.next()];
      const future = new ChainBuilder({ label: 'future' }).next();
      const [held, closing] = cycle(good[1]);
      const bodies = [
        line(good[0], 1),
        line('{"block_height": 1', 2),
        line(atHeight(good[0], 2 ** 32), 3),
        line(atHeight(good[0], 1e15), 4),
        line(good[1], 5),
        line(ownParent(good[1]), 6),
        line(held, 7),
        line(closing, 8),
        line(squatting(future, good[1]), 9),
        line(good[2], 10),
      ];
      await opened.archiver.archiveBodies(bodies);
      expect((await opened.blocks.tip())?.hash).to.equal(good[2].index_block_hash);
      const state = await opened.blocks.chainState(10);
      expect(state.quarantined.count).to.equal(6);
      expect(opened.notices.counters.quarantinedBodies).to.equal(6);
      const bySource = new Map(state.quarantined.recent.map((entry) => [entry.source, entry.reason]));
      expect(bySource.get('import chain.tsv line 2')).to.match(/^not JSON/);
      expect(bySource.get('import chain.tsv line 3')).to.match(/block_height must be at most 2147483647/);
      expect(bySource.get('import chain.tsv line 4')).to.match(/block_height must be at most/);
      expect(bySource.get('import chain.tsv line 6')).to.match(/own parent/);
      expect(bySource.get('import chain.tsv line 8')).to.match(/parent cycle/);
      expect(bySource.get('import chain.tsv line 9')).to.match(/index_block_hash must be 0x[0-9a-f]{64}/);
      // The block whose id was squatted is archived when it comes.
      await opened.archiver.archiveBodies([line(future, 11)]);
      expect((await opened.blocks.getByHash(future.index_block_hash))?.block_identifier.index).to.equal(
        future.block_height,
      );
    });

    it('archives and connects a block with an undecodable transaction, keeping it with the reason and counting it', async () => {
      const chain = new ChainBuilder();
      const transfers = await Promise.all(
        [0, 1, 2].map((nonce) => stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: 5n, nonce })),
      );
      const before = chain.next();
      const broken = withUndecodableTransaction(chain.next({ transactions: transfers }), 1);
      const after = chain.next();
      await opened.archiver.archiveBodies([line(before, 1), line(broken, 2), line(after, 3)]);
      expect((await opened.blocks.tip())?.hash).to.equal(after.index_block_hash);
      expect(await opened.blocks.isCanonical(broken.index_block_hash)).to.equal(true);
      const stored = await opened.blocks.getByHash(broken.index_block_hash);
      expect(stored?.transactions.map((tx) => tx.transaction_identifier.hash)).to.deep.equal([
        transfers[0].transaction.txid,
        transfers[2].transaction.txid,
      ]);
      expect(stored?.unreadable_transactions?.map((tx) => [tx.txid, tx.raw_tx])).to.deep.equal([
        [transfers[1].transaction.txid, '0xdeadbeef'],
      ]);
      expect((await opened.blocks.chainState()).unreadableBlocks).to.equal(1);
      expect(opened.notices.counters.unreadableBlocks).to.equal(1);
      // Archived again, it is not counted again.
      await opened.archiver.archiveBodies([line(broken, 2)]);
      expect(opened.notices.counters.unreadableBlocks).to.equal(1);
    });
  });
}

poisonSuite('embedded', false);

if (await postgresAvailable()) {
  poisonSuite('Postgres', true);
} else {
  describe('BlockArchiver with poison and unreadable bodies (Postgres)', () => {
    it('needs PostgreSQL, which did not answer (set STACKHOOKS_TEST_DATABASE_URL)');
  });
}
