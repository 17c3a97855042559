import { expect } from 'chai';
import { finishBackfill, newBackfill, type StoredBackfill } from '../../core/backfill/backfill.js';
import type { BackfillStore } from '../../core/ports/backfill-store.js';

/** A store under test; `reopen` closes it and opens the same data again. */
export type BackfillStoreSubject = {
  store: BackfillStore;
  reopen: () => Promise<BackfillStore>;
  cleanup: () => Promise<void>;
};

const backfill = (id: string, hookUuid: string, createdAt: number): StoredBackfill =>
  newBackfill({ id, hookUuid, owner: 'alice', from: 1, to: 100, now: createdAt });

/** The behaviour every BackfillStore must show; run it against each adapter with a fresh, empty store. */
export function backfillStoreContract(name: string, open: () => Promise<BackfillStoreSubject>): void {
  describe(`BackfillStore contract: ${name}`, () => {
    let subject: BackfillStoreSubject;
    beforeEach(async () => {
      subject = await open();
    });
    afterEach(async () => subject.cleanup());

    it('reads a backfill back only under its own hook', async () => {
      await subject.store.create(backfill('bf_0000000000000001', 'hook-a', 1));
      expect((await subject.store.get('hook-a', 'bf_0000000000000001'))?.from_block_height).to.equal(1);
      expect(await subject.store.get('hook-b', 'bf_0000000000000001')).to.equal(undefined);
    });

    it('lists a hook’s backfills newest first, and only the unfinished oldest first', async () => {
      await subject.store.create(backfill('bf_0000000000000001', 'hook-a', 1));
      await subject.store.create(backfill('bf_0000000000000002', 'hook-a', 2));
      await subject.store.create(backfill('bf_0000000000000003', 'hook-b', 3));
      await subject.store.update('bf_0000000000000002', (b) => finishBackfill(b, 'done', 4));
      expect((await subject.store.list('hook-a')).map((b) => b.id)).to.deep.equal([
        'bf_0000000000000002',
        'bf_0000000000000001',
      ]);
      expect((await subject.store.unfinished()).map((b) => b.id)).to.deep.equal([
        'bf_0000000000000001',
        'bf_0000000000000003',
      ]);
    });

    it('applies an update to the current version and keeps it across a reopen', async () => {
      await subject.store.create(backfill('bf_0000000000000001', 'hook-a', 1));
      await subject.store.update('bf_0000000000000001', (b) => ({
        ...b,
        next_block_height: 50,
        outstanding: ['msg_x'],
      }));
      const updated = await subject.store.update('bf_0000000000000001', (b) => ({
        ...b,
        blocks_scanned: b.next_block_height,
      }));
      expect(updated?.blocks_scanned).to.equal(50);
      const reopened = await subject.reopen();
      const read = await reopened.get('hook-a', 'bf_0000000000000001');
      expect(read).to.deep.include({ next_block_height: 50, blocks_scanned: 50, outstanding: ['msg_x'] });
    });

    it('updates nothing for an unknown id', async () => {
      expect(await subject.store.update('bf_0000000000000009', (b) => b)).to.equal(undefined);
    });
  });
}
