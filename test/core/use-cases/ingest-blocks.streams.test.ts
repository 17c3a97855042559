import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { runImport } from '../../../apps/cli/import-command.js';
import {
  ChainBuilder,
  TEST_KEYS,
  addressOf,
  stxTransfer,
  type BuiltTransaction,
  type NodeBlock,
} from '../../support/block-builder.js';
import {
  expectDeliveriesMatchChain,
  startChainScenario,
  type ChainScenario,
} from '../../support/chain-scenario.js';
import {
  atHeight,
  cycle,
  ownParent,
  squatting,
  withUndecodableTransaction,
} from '../../support/poison-bodies.js';
import { postgresAvailable } from '../../support/postgres.js';

/** Blocks of `chain`, each with one STX transfer (the same one: matching looks at events, not at nonces). */
function blocksOf(chain: ChainBuilder, count: number, tx: BuiltTransaction): NodeBlock[] {
  return Array.from({ length: count }, () => chain.next({ transactions: [tx] }));
}

const heightsOf = (refs: { index: number }[]) => refs.map((ref) => ref.index);

function streamSuite(name: string, onPostgres: boolean) {
  describe(`blocks in from streams with gaps, orphans, unreadable blocks and poison (${name})`, function () {
    this.timeout(120_000);
    let s: ChainScenario;
    let tx: BuiltTransaction;
    before(async () => {
      tx = await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: 5n });
    });
    beforeEach(async () => {
      s = await startChainScenario(onPostgres);
    });
    afterEach(() => s.stop());

    /** A restart changes nothing: the same payloads, tip and chain state, and no new warning. */
    async function expectRestartChangesNothing(filled?: ReadonlySet<string>) {
      const before = {
        deliveries: (await s.deliveries()).length,
        status: await s.status(),
        told: s.told().length,
      };
      await s.close();
      await s.reopen();
      expect((await s.deliveries()).length).to.equal(before.deliveries);
      const after = await s.status();
      expect(after.chain_tip).to.deep.equal(before.status.chain_tip);
      expect(after.chain).to.deep.equal(before.status.chain);
      expect(s.told()).to.have.length(before.told);
      await expectDeliveriesMatchChain(s, filled);
    }

    it('rolls back a genesis body the next block does not link to, and goes on from that block, with a gap', async () => {
      const genesis = new ChainBuilder({ label: 'genesis', startHeight: 0 }).next({ transactions: [tx] });
      const chain = new ChainBuilder({ label: 'after-genesis', startHeight: 1 });
      const blocks = blocksOf(chain, 12, tx);
      await s.post(genesis, ...blocks);
      const status = await s.status();
      expect(status.chain_tip.block_height).to.equal(12);
      expect(status.chain).to.deep.include({ open_gaps: 1, held_orphans: 0 });
      expect(status.chain.gaps[0]).to.deep.include({ from_height: 0, to_height: 0, missing: 1 });
      expect(status.chain.gaps[0].opened_by).to.equal(blocks[0].index_block_hash);
      expect(status.conditions.map((c: { name: string }) => c.name)).to.include('chain_gap');
      expect(s.told()).to.deep.equal(['warn gap opened: a block arrived whose parent never came']);
      const deliveries = await s.deliveries();
      expect(heightsOf(deliveries[1].rollback)).to.deep.equal([0]);
      expect(await expectDeliveriesMatchChain(s)).to.deep.equal(blocks.map((b) => b.block_height));
      await expectRestartChangesNothing();
    });

    it('opens a gap for a block far above the tip, and an import of the missing blocks closes it without delivering them', async () => {
      const chain = new ChainBuilder();
      const blocks = blocksOf(chain, 51, tx);
      await s.post(...blocks.slice(0, 10), blocks[49]);
      let status = await s.status();
      expect(status.chain_tip.block_height).to.equal(50);
      expect(status.chain.gaps).to.have.length(1);
      expect(status.chain.gaps[0]).to.deep.include({ from_height: 11, to_height: 49, missing: 39 });
      expect(status.conditions.map((c: { name: string }) => c.name)).to.include('chain_gap');
      expect(s.told()).to.deep.equal(['warn gap opened: a block arrived whose parent never came']);
      const opened = s.logger.lines.find((l) => l.message.startsWith('gap opened'));
      expect(opened?.fields).to.deep.include({ event_id: 11, from_height: 11, to_height: 49, missing: 39 });
      expect(await expectDeliveriesMatchChain(s)).to.deep.equal([
        ...Array.from({ length: 10 }, (_, i) => i + 1),
        50,
      ]);

      await s.close();
      const file = join(s.dataDir, 'missing.tsv');
      await writeFile(
        file,
        blocks
          .slice(10, 49)
          .map((b, i) => `${i + 1}\t2024-01-01 00:00:00+00\t/new_block\t${JSON.stringify(b)}\n`)
          .join(''),
      );
      const summary = await runImport(file, {
        dataDir: s.dataDir,
        databaseUrl: s.databaseUrl,
        network: 'mainnet',
      });
      expect(summary).to.deep.include({ archived: 39, gapsClosed: 1, gapsOpened: 0, openGaps: [] });
      await s.reopen();
      status = await s.status();
      expect(status.chain).to.deep.include({ open_gaps: 0, gaps: [] });
      expect(status.conditions.map((c: { name: string }) => c.name)).to.not.include('chain_gap');
      await s.post(blocks[50]);
      const filled = new Set(blocks.slice(10, 49).map((b) => b.index_block_hash));
      expect(await expectDeliveriesMatchChain(s, filled)).to.deep.equal([
        ...Array.from({ length: 10 }, (_, i) => i + 1),
        50,
        51,
      ]);
      await expectRestartChangesNothing(filled);
    });

    it('closes a gap when the node sends the missing blocks after all, delivering none of them', async () => {
      const chain = new ChainBuilder();
      const blocks = blocksOf(chain, 21, tx);
      await s.post(...blocks.slice(0, 5), blocks[19]);
      const before = (await s.deliveries()).length;
      await s.post(...blocks.slice(5, 19));
      expect((await s.deliveries()).length).to.equal(before);
      expect((await s.status()).chain).to.deep.include({ open_gaps: 0, gaps: [] });
      expect(s.told()).to.deep.equal([
        'warn gap opened: a block arrived whose parent never came',
        'warn gap closed (filled)',
      ]);
      await s.post(blocks[20]);
      const filled = new Set(blocks.slice(5, 19).map((b) => b.index_block_hash));
      expect(await expectDeliveriesMatchChain(s, filled)).to.deep.equal([1, 2, 3, 4, 5, 20, 21]);
      await expectRestartChangesNothing(filled);
    });

    it('holds a fork block that arrives before its parent and connects both in one update', async () => {
      const chain = new ChainBuilder();
      const main = blocksOf(chain, 5, tx);
      const fork = blocksOf(chain.forkFrom(main[2].index_block_hash), 3, tx);
      await s.post(...main, fork[1]);
      expect((await s.status()).chain.held_orphans).to.equal(1);
      expect(s.told()).to.deep.equal([
        'warn orphan held: a block at or below the tip whose parent is unknown',
      ]);
      await s.post(fork[0], fork[2]);
      expect((await s.status()).chain).to.deep.include({ held_orphans: 0, open_gaps: 0 });
      const last = (await s.deliveries()).slice(-2);
      expect(heightsOf(last[0].rollback)).to.deep.equal([5, 4]);
      expect(last[0].apply.map((b) => b.hash)).to.deep.equal([
        fork[0].index_block_hash,
        fork[1].index_block_hash,
      ]);
      expect(await expectDeliveriesMatchChain(s)).to.deep.equal([1, 2, 3, 4, 5, 6]);
      await expectRestartChangesNothing();
    });

    it('archives a block with an undecodable transaction between good ones, delivers its good ones, and later blocks flow', async () => {
      const chain = new ChainBuilder();
      const transfers = await Promise.all(
        [1, 2, 3].map((nonce) => stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: 5n, nonce })),
      );
      const before = blocksOf(chain, 5, tx);
      const broken = withUndecodableTransaction(chain.next({ transactions: transfers }), 1);
      const middle = blocksOf(chain, 1, tx);
      const unlisted = { ...chain.next({ transactions: [tx] }), transactions: null };
      const after = blocksOf(chain, 3, tx);
      await s.post(...before, broken, ...middle, unlisted, ...after);
      const status = await s.status();
      expect(status.chain_tip.block_height).to.equal(11);
      expect(status.chain).to.deep.include({ unreadable_blocks: 2, quarantined_bodies: 0, held_orphans: 0 });
      const errors = s.logger.errors();
      expect(errors.map((l) => [l.message, l.fields.event_id, l.fields.block_height])).to.deep.equal([
        ['block archived with transactions that could not be read', 6, 6],
        ['block archived with transactions that could not be read', 8, 8],
      ]);
      expect(s.stackhooks.chain.counters.unreadableBlocks).to.equal(2);
      const six = (await s.deliveries()).find((d) => d.apply.some((b) => b.index === 6));
      expect(six?.apply[0].tx_indexes).to.deep.equal([0, 1]);
      expect(await expectDeliveriesMatchChain(s)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 9, 10, 11]);
      await expectRestartChangesNothing();
    });

    it('holds a block at a fork below the tip whose parent is unknown, and the chain goes on', async () => {
      const chain = new ChainBuilder();
      const main = blocksOf(chain, 10, tx);
      const stray = new ChainBuilder({ label: 'stray', startHeight: 8 }).next({ transactions: [tx] });
      await s.post(...main, stray, ...blocksOf(chain, 1, tx));
      const status = await s.status();
      expect(status.chain_tip.block_height).to.equal(11);
      expect(status.chain).to.deep.include({ held_orphans: 1, open_gaps: 0 });
      expect(s.told()).to.deep.equal([
        'warn orphan held: a block at or below the tip whose parent is unknown',
      ]);
      expect(await expectDeliveriesMatchChain(s)).to.deep.equal(Array.from({ length: 11 }, (_, i) => i + 1));
      await expectRestartChangesNothing();
    });

    it('quarantines poison between good blocks (heights 2^32 and 1e15, its own parent, a cycle, a squatted id) and never stalls', async () => {
      const chain = new ChainBuilder();
      const blocks = blocksOf(chain, 6, tx);
      const [held, closing] = cycle(blocks[1]);
      await s.post(
        ...blocks.slice(0, 3),
        atHeight(blocks[2], 2 ** 32),
        atHeight(blocks[2], 1e15),
        ownParent(blocks[2]),
        held,
        closing,
        squatting(blocks[4], blocks[2]),
        ...blocks.slice(3),
      );
      const status = await s.status();
      expect(status.chain_tip).to.deep.equal({
        block_height: 6,
        index_block_hash: blocks[5].index_block_hash,
      });
      expect(status.chain).to.deep.include({ quarantined_bodies: 5, held_orphans: 1, open_gaps: 0 });
      expect(status.chain.recent_quarantined.map((q: { source: string }) => q.source)).to.deep.equal([
        'event 9',
        'event 8',
        'event 6',
        'event 5',
        'event 4',
      ]);
      expect(s.told().filter((line) => line.startsWith('warn body quarantined'))).to.have.length(5);
      expect(s.stackhooks.chain.counters.quarantinedBodies).to.equal(5);
      expect(await expectDeliveriesMatchChain(s)).to.deep.equal([1, 2, 3, 4, 5, 6]);
      await expectRestartChangesNothing();
    });
  });
}

streamSuite('embedded', false);

if (await postgresAvailable()) {
  streamSuite('Postgres', true);
} else {
  describe('blocks in from streams with gaps, orphans, unreadable blocks and poison (Postgres)', () => {
    it('needs PostgreSQL, which did not answer (set STACKHOOKS_TEST_DATABASE_URL)');
  });
}
