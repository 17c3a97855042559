import { expect } from 'chai';
import type { BlockHeader } from '../../core/chain/block-header.js';
import type { NormalizedBlock } from '../../core/chain/block.js';
import type { ChainRules } from '../../core/chain/canonical-chain.js';
import { StackhooksError } from '../../core/hooks/errors.js';
import type { BlockStore, QuarantinedBody } from '../../core/ports/block-store.js';
import { ChainBuilder, headerOf, minimalNormalizedBlock } from '../support/block-builder.js';

/** A store under test that can be closed and opened again on the same data (a restart). */
export type ReopenableStore = BlockStore & { close(): Promise<void>; reopen(): Promise<ReopenableStore> };

/** Opens a fresh, empty store with these bounds on held orphans. */
export type OpenReopenable = (
  orphans?: Pick<ChainRules, 'maxHeldOrphans' | 'maxOrphanDepth'>,
) => Promise<ReopenableStore>;

const block = (header: BlockHeader): NormalizedBlock =>
  minimalNormalizedBlock(header, 1_700_000_000 + header.height);

/** What a reader sees of the chain: tip, count, canonical hash per height up to `top`, gaps and orphans. */
async function picture(store: BlockStore, top: number): Promise<unknown> {
  const canonical: (string | undefined)[] = [];
  for (let height = 0; height <= top; height++) {
    canonical.push((await store.getCanonicalAt(height))?.block_identifier.hash);
  }
  const state = await store.chainState();
  return { tip: await store.tip(), count: await store.count(), canonical, state };
}

/** Gaps, orphans, poison, the quarantine and restarts: what every BlockStore must do alike. */
export function blockStoreGapContract(name: string, open: OpenReopenable): void {
  describe(`BlockStore gaps and poison contract: ${name}`, () => {
    let store: ReopenableStore;
    let chain: ChainBuilder;
    let blocks: BlockHeader[];

    /** Blocks 1–50 built; 1–10 put, then 50 at time 5000: the gap 11–49. */
    async function gapAfterTen(): Promise<void> {
      for (const header of blocks.slice(0, 10)) await store.put(block(header), { receivedAt: 1000 });
      await store.put(block(blocks[49]), { receivedAt: 5000 });
    }

    beforeEach(async () => {
      store = await open();
      chain = new ChainBuilder({ label: `gaps ${name}` });
      blocks = Array.from({ length: 50 }, () => headerOf(chain.next()));
    });

    afterEach(async () => {
      await store.close();
    });

    it('makes a block above the tip with an unknown parent the tip and lists the gap it opened', async () => {
      await gapAfterTen();
      expect(await store.tip()).to.deep.equal(blocks[49]);
      const state = await store.chainState();
      expect(state.gaps).to.deep.equal([
        { from_height: 11, to_height: 49, above: blocks[49], opened_by: blocks[49].hash, opened_at: 5000 },
      ]);
      expect(state.lastReceivedAt).to.equal(5000);
      expect(await store.getCanonicalAt(30)).to.equal(undefined);
      expect(await store.isCanonical(blocks[9].hash)).to.equal(true);
    });

    it('fills the gap from below without applying anything, and closes it', async () => {
      await gapAfterTen();
      const updates = [];
      for (const header of blocks.slice(10, 49)) updates.push(await store.put(block(header)));
      expect(updates.flatMap((update) => [...update.apply, ...update.rollback])).to.deep.equal([]);
      expect(updates.at(-1)?.notes?.map((note) => note.kind)).to.deep.equal(['gap_closed']);
      expect((await store.chainState()).gaps).to.deep.equal([]);
      for (const header of blocks)
        expect(await store.isCanonical(header.hash), `${header.height}`).to.equal(true);
      expect(await store.tip()).to.deep.equal(blocks[49]);
    });

    it('fills the gap from the top, narrowing it, in batches where the store takes them', async () => {
      await gapAfterTen();
      const missing = blocks.slice(10, 49).reverse().map(block);
      if (store.putMany) await store.putMany(missing.slice(0, 20));
      else for (const b of missing.slice(0, 20)) await store.put(b);
      expect((await store.chainState()).gaps.map((gap) => [gap.from_height, gap.to_height])).to.deep.equal([
        [11, 29],
      ]);
      for (const b of missing.slice(20)) await store.put(b);
      expect((await store.chainState()).gaps).to.deep.equal([]);
      expect(await store.getCanonicalAt(30)).to.deep.equal(block(blocks[29]));
    });

    it('holds a block below the tip whose parent is unknown, and drops the oldest beyond the bound', async () => {
      await store.close();
      store = await open({ maxHeldOrphans: 2 });
      for (const header of blocks.slice(0, 10)) await store.put(block(header));
      // The second block of a fork at each height: its parent was never sent.
      const fork = [2, 3, 4].map((height) => {
        const branch = chain.forkFrom(blocks[height].hash);
        branch.next();
        return headerOf(branch.next());
      });
      const notes = [];
      for (const header of fork) notes.push(...((await store.put(block(header))).notes ?? []));
      expect(notes.map((note) => note.kind)).to.deep.equal([
        'orphan_held',
        'orphan_held',
        'orphan_held',
        'orphan_dropped',
      ]);
      expect((await store.chainState()).heldOrphans).to.equal(2);
      const reopened = await store.reopen();
      store = reopened;
      expect((await store.chainState()).heldOrphans).to.equal(2);
    });

    it('refuses poison with a validation error and stores nothing of it', async () => {
      for (const header of blocks.slice(0, 5)) await store.put(block(header));
      const self = `0x${'5e'.repeat(32)}`;
      const other = `0x${'07'.repeat(32)}`;
      await store.put(block({ hash: other, height: 3, parent_hash: `0x${'06'.repeat(32)}` }));
      const poison: BlockHeader[] = [
        { hash: `0x${'aa'.repeat(32)}`, height: 2 ** 32, parent_hash: blocks[4].hash },
        { hash: `0x${'bb'.repeat(32)}`, height: 1e15, parent_hash: blocks[4].hash },
        { hash: self, height: 6, parent_hash: self },
        { hash: `0x${'06'.repeat(32)}`, height: 2, parent_hash: other },
        { hash: `0x${'cc'.repeat(32)}`, height: 9, parent_hash: blocks[4].hash },
      ];
      const count = await store.count();
      for (const header of poison) {
        const error = await store.put(block(header)).catch((err: unknown) => err);
        expect(error, header.hash).to.be.instanceOf(StackhooksError);
        expect(await store.getByHash(header.hash)).to.equal(undefined);
      }
      expect(await store.count()).to.equal(count);
      expect(await store.tip()).to.deep.equal(blocks[4]);
      await store.put(block(blocks[5]));
      expect(await store.tip()).to.deep.equal(blocks[5]);
    });

    it('keeps quarantined bodies, newest first in the state, without their bodies', async () => {
      const body = (n: number): QuarantinedBody => ({
        reason: `reason ${n}`,
        received_at: 100 + n,
        source: `event ${n}`,
        index_block_hash: n === 1 ? null : `0x${'ab'.repeat(32)}`,
        block_height: n === 1 ? null : 2 ** 32,
        body: `{"n":${n}}`,
      });
      await store.quarantine(body(1));
      await store.quarantine(body(2));
      const strip = ({ body: _body, ...entry }: QuarantinedBody) => entry;
      expect((await store.chainState()).quarantined).to.deep.equal({
        count: 2,
        recent: [strip(body(2)), strip(body(1))],
      });
      expect((await store.chainState(1)).quarantined.recent).to.deep.equal([strip(body(2))]);
      store = await store.reopen();
      expect((await store.chainState()).quarantined.count).to.equal(2);
    });

    it('counts blocks archived with unreadable transactions', async () => {
      await store.put(block(blocks[0]));
      await store.put({
        ...block(blocks[1]),
        unreadable_transactions: [
          { txid: '0x01', tx_index: 0, raw_tx: '0xdeadbeef', reason: 'bad', events: [] },
        ],
      });
      expect((await store.chainState()).unreadableBlocks).to.equal(1);
      expect((await store.getByHash(blocks[1].hash))?.unreadable_transactions?.[0].reason).to.equal('bad');
    });

    it('changes nothing on a restart: tip, canonical chain, gaps and held orphans', async () => {
      await gapAfterTen();
      for (const header of blocks.slice(10, 20)) await store.put(block(header));
      const fork = chain.forkFrom(blocks[2].hash);
      fork.next();
      await store.put(block(headerOf(fork.next())));
      const before = await picture(store, 52);
      store = await store.reopen();
      expect(await picture(store, 52)).to.deep.equal(before);
      for (const header of blocks.slice(20, 49)) await store.put(block(header));
      expect((await store.chainState()).gaps).to.deep.equal([]);
    });
  });
}
