import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { interruptHook } from '../../core/hooks/lifecycle.js';
import type { StoredHook } from '../../core/hooks/record.js';
import type { HookRepository } from '../../core/ports/hook-repository.js';
import { hookChangeCases } from './hook-repository-changes.contract.js';
import { hookDurabilityCases } from './hook-repository-durability.contract.js';
import {
  definition,
  insertAll,
  newHook,
  reserveMs,
  streaming,
  URL_A,
  uuidsOf,
} from './hook-repository-fixtures.js';
import { liveStreamCases } from './live-stream.contract.js';

/** A repository under test; `reopen` (when the store persists) closes it and opens the same data again. */
export type HookRepositorySubject = {
  repo: HookRepository;
  reopen?: () => Promise<HookRepository>;
  /**
   * Open the data as a crash of the latest repository at this moment leaves it (nothing closed, no
   * write finished that was not acknowledged); later calls crash the repository this one returns.
   */
  crash?: () => Promise<HookRepository>;
  /** Like `crash`, but the crash cuts off an insert of `hook` in the middle of its write. */
  crashWritingInsert?: (hook: StoredHook) => Promise<HookRepository>;
  cleanup: () => Promise<void>;
};

/** The behaviour every HookRepository must show; run it against each adapter with a fresh, empty store. */
export function hookRepositoryContract(name: string, open: () => Promise<HookRepositorySubject>): void {
  describe(`HookRepository contract: ${name}`, () => {
    let subject: HookRepositorySubject;
    let repo: HookRepository;

    beforeEach(async () => {
      subject = await open();
      repo = subject.repo;
    });
    afterEach(async () => {
      await subject.cleanup();
    });

    it('returns an inserted hook, from insert and from get, exactly as it was given', async () => {
      const hook = newHook('alice');
      expect(await repo.insert(hook, 10)).to.deep.equal(hook);
      expect(await repo.get('alice', hook.uuid)).to.deep.equal(hook);
    });

    it('counts hooks by status and enabled, leaving out combinations with none', async () => {
      expect(await repo.statusCounts()).to.deep.equal([]);
      await insertAll(repo, [
        newHook('alice'),
        newHook('alice'),
        streaming(newHook('bob')),
        interruptHook(streaming(newHook('bob'))),
      ]);
      const counts = await repo.statusCounts();
      const sorted = [...counts].sort((a, b) => a.status.localeCompare(b.status));
      expect(sorted).to.deep.equal([
        { status: 'interrupted', enabled: false, count: 1 },
        { status: 'new', enabled: false, count: 2 },
        { status: 'streaming', enabled: true, count: 1 },
      ]);
    });

    it('counts hooks by the status the live stream gives them, as they are shown', async () => {
      const [live, idle, limited] = [newHook('alice'), newHook('alice'), newHook('bob')];
      const enabled = (hook: StoredHook): StoredHook => ({
        ...hook,
        status: { ...hook.status, enabled: true },
      });
      const once = { ...limited.definition, options: { expire_after_evaluations: 1 } };
      await insertAll(repo, [enabled(live), idle, enabled({ ...limited, definition: once })]);
      // Stored `new`, an enabled hook reads `streaming` once the stream has evaluated a block, and
      // one whose limit that block reached reads `expired`, disabled.
      await repo.recordLiveStep({ blocks: 1, height: 5, at: 100 }, [], () => undefined);
      const shown = await Promise.all([
        repo.get('alice', live.uuid),
        repo.get('alice', idle.uuid),
        repo.get('bob', limited.uuid),
      ]);
      expect(shown.map((hook) => [hook!.status.status, hook!.status.enabled])).to.deep.equal([
        ['streaming', true],
        ['new', false],
        ['expired', false],
      ]);
      const sorted = [...(await repo.statusCounts())].sort((a, b) => a.status.localeCompare(b.status));
      expect(sorted).to.deep.equal([
        { status: 'expired', enabled: false, count: 1 },
        { status: 'new', enabled: false, count: 1 },
        { status: 'streaming', enabled: true, count: 1 },
      ]);
    });

    it('keeps the counts by status through updates, live steps and deletes', async () => {
      const [a, b, c] = [newHook('alice'), newHook('alice'), newHook('bob')];
      await insertAll(repo, [a, b, c]);
      await repo.update('alice', a.uuid, streaming);
      await repo.recordLiveStep({ blocks: 0, height: 0, at: 0 }, [c.uuid], (hook) =>
        interruptHook(streaming(hook)),
      );
      await repo.delete('alice', b.uuid);
      const sorted = [...(await repo.statusCounts())].sort((x, y) => x.status.localeCompare(y.status));
      expect(sorted).to.deep.equal([
        { status: 'interrupted', enabled: false, count: 1 },
        { status: 'streaming', enabled: true, count: 1 },
      ]);
    });

    it('returns undefined from get for another owner’s hook or an unknown uuid', async () => {
      const hook = newHook('alice');
      await repo.insert(hook, 10);
      expect(await repo.get('bob', hook.uuid)).to.equal(undefined);
      expect(await repo.get('alice', randomUUID())).to.equal(undefined);
    });

    it('lists an owner’s hooks in pages, oldest first, with the owner’s total', async () => {
      const base = reserveMs(100);
      // Inserted out of time order, with a tie on created_at_ms that only the uuid breaks.
      const hooks = [
        newHook('alice', { atMs: base + 30 }),
        newHook('alice', { atMs: base + 10, uuid: 'ffffffff-0000-4000-8000-000000000000' }),
        newHook('alice', { atMs: base + 10, uuid: '00000000-0000-4000-8000-000000000000' }),
        newHook('alice', { atMs: base + 50 }),
        newHook('alice', { atMs: base + 20 }),
      ];
      await insertAll(repo, [...hooks, newHook('bob', { atMs: base })]);
      const expected = [hooks[2], hooks[1], hooks[4], hooks[0], hooks[3]];

      const first = await repo.list('alice', 0, 2);
      const second = await repo.list('alice', 2, 2);
      const last = await repo.list('alice', 4, 2);
      expect([first.total, second.total, last.total]).to.deep.equal([5, 5, 5]);
      expect([...first.results, ...second.results, ...last.results]).to.deep.equal(expected);
      expect(await repo.list('alice', 5, 2)).to.deep.equal({ total: 5, results: [] });
      expect(await repo.list('carol', 0, 10)).to.deep.equal({ total: 0, results: [] });
    });

    it('lists every hook of a long listing once, oldest first, however deep the page', async () => {
      const base = reserveMs(1_000);
      // Enough hooks that a store maintaining its tables after many writes does so meanwhile; three
      // to a millisecond, in no time order, with another owner's between them.
      const alices = Array.from({ length: 1_200 }, (_, i) =>
        newHook('alice', { atMs: base + ((i * 7) % 400) }),
      );
      const queue = alices.flatMap((hook, i) =>
        i % 15 === 0 ? [hook, newHook('bob', { atMs: base + i })] : [hook],
      );
      // Eight writers at a time, as a busy API writes them.
      await Promise.all(
        Array.from({ length: 8 }, async (_, lane) => {
          for (let i = lane; i < queue.length; i += 8) {
            expect(await repo.insert(queue[i], 10_000)).to.deep.equal(queue[i]);
          }
        }),
      );
      const gone = [alices[3], alices[700], alices[1_199]];
      for (const hook of gone) expect(await repo.delete('alice', hook.uuid)).to.equal(true);
      const kept = alices.filter((hook) => !gone.includes(hook));
      // Oldest first; uuids, which are unique, break ties by code point.
      const expected = kept.sort((a, b) => a.created_at_ms - b.created_at_ms || (a.uuid < b.uuid ? -1 : 1));

      const walked: StoredHook[] = [];
      for (let offset = 0; offset < expected.length; offset += 100) {
        const page = await repo.list('alice', offset, 100);
        expect(page.total).to.equal(1_197);
        walked.push(...page.results);
      }
      expect(uuidsOf(walked)).to.deep.equal(uuidsOf(expected));
      expect(await repo.list('alice', 1_190, 20)).to.deep.equal({
        total: 1_197,
        results: expected.slice(1_190),
      });
      expect(await repo.list('alice', 1_197, 20)).to.deep.equal({ total: 1_197, results: [] });
    });

    it('lists only the hooks passing a filter, matching the name without regard to case', async () => {
      const named = (name: string, enabled: boolean) => {
        const hook = newHook('alice');
        return { ...hook, definition: { ...hook.definition, name }, status: { ...hook.status, enabled } };
      };
      const hooks = [
        named('sBTC transfers', true),
        named('pox stacking', false),
        named('SBTC mints', false),
        named('more sbtc', true),
      ];
      await insertAll(repo, [
        ...hooks,
        { ...newHook('bob'), definition: { ...definition(URL_A), name: 'sbtc' } },
      ]);

      const sbtc = await repo.list('alice', 0, 10, { name: 'sbtc' });
      expect(sbtc).to.deep.equal({ total: 3, results: [hooks[0], hooks[2], hooks[3]] });
      expect(await repo.list('alice', 1, 1, { name: 'SbTc' })).to.deep.equal({
        total: 3,
        results: [hooks[2]],
      });
      expect(await repo.list('alice', 0, 10, { name: 'sbtc', enabled: false })).to.deep.equal({
        total: 1,
        results: [hooks[2]],
      });
      expect((await repo.list('alice', 0, 10, { enabled: true })).results).to.deep.equal([
        hooks[0],
        hooks[3],
      ]);
      expect(await repo.list('alice', 5, 10, { name: 'nothing like it' })).to.deep.equal({
        total: 0,
        results: [],
      });
    });

    it('filters on the status a hook is shown with, which the live stream derives', async () => {
      const live = newHook('alice');
      const idle = newHook('alice');
      await insertAll(repo, [{ ...live, status: { ...live.status, enabled: true } }, idle]);
      // Stored `new`, the enabled hook reads `streaming` once the stream has evaluated a block.
      await repo.recordLiveStep({ blocks: 1, height: 5, at: 100 }, [], () => undefined);
      const streamingPage = await repo.list('alice', 0, 10, { status: 'streaming' });
      expect(uuidsOf(streamingPage.results)).to.deep.equal([live.uuid]);
      expect(streamingPage.results[0].status.evaluated_block_count).to.equal(1);
      expect(uuidsOf((await repo.list('alice', 0, 10, { status: 'new' })).results)).to.deep.equal([
        idle.uuid,
      ]);
    });

    it('refuses an insert once the owner holds maxPerOwner hooks, counting each owner apart', async () => {
      const kept = [newHook('alice'), newHook('alice')];
      await insertAll(repo, kept);
      const refused = newHook('alice');
      expect(await repo.insert(refused, 2)).to.equal(undefined);
      expect(await repo.get('alice', refused.uuid)).to.equal(undefined);
      expect((await repo.list('alice', 0, 10)).total).to.equal(2);
      expect(await repo.insert(newHook('bob'), 2)).to.not.equal(undefined);

      await repo.delete('alice', kept[0].uuid);
      expect(await repo.insert(refused, 2)).to.deep.equal(refused);
    });

    it('admits exactly maxPerOwner of many concurrent inserts by one owner', async () => {
      const results = await Promise.all(Array.from({ length: 30 }, () => repo.insert(newHook('alice'), 7)));
      expect(results.filter(Boolean)).to.have.length(7);
      expect((await repo.list('alice', 0, 100)).total).to.equal(7);
    });

    it('rejects an insert whose uuid is already stored', async () => {
      const hook = newHook('alice');
      await repo.insert(hook, 10);
      let error: unknown;
      await repo.insert({ ...newHook('bob'), uuid: hook.uuid }, 10).catch((err: unknown) => (error = err));
      expect(error).to.be.instanceOf(Error);
      expect(await repo.get('bob', hook.uuid)).to.equal(undefined);
    });

    describe('getByUuid', () => {
      it('finds a hook whoever owns it, and nothing once it is deleted', async () => {
        const hook = newHook('alice');
        await insertAll(repo, [hook]);
        expect((await repo.getByUuid(hook.uuid))?.owner).to.equal('alice');
        await repo.delete('alice', hook.uuid);
        expect(await repo.getByUuid(hook.uuid)).to.equal(undefined);
      });
    });

    describe('getByUuids', () => {
      it('finds the named hooks of every owner, once each, and skips unknown and deleted uuids', async () => {
        const [a, b, c] = [newHook('alice'), newHook('bob'), newHook('carol')];
        await insertAll(repo, [a, b, c]);
        await repo.delete('carol', c.uuid);
        const unknown = '00000000-0000-4000-8000-000000000000';
        const found = await repo.getByUuids([b.uuid, unknown, a.uuid, c.uuid, b.uuid]);
        expect(found.map((h) => `${h.owner}:${h.uuid}`).sort()).to.deep.equal(
          [`alice:${a.uuid}`, `bob:${b.uuid}`].sort(),
        );
        expect(await repo.getByUuids([])).to.deep.equal([]);
      });
    });

    it('lists every owner’s hooks from listAll', async () => {
      const hooks = [newHook('alice'), newHook('bob'), newHook('carol'), newHook('alice')];
      await insertAll(repo, hooks);
      const all = await repo.listAll();
      expect(uuidsOf(all).sort()).to.deep.equal(uuidsOf(hooks).sort());
      expect(all.find((hook) => hook.owner === 'carol')).to.deep.equal(hooks[2]);
    });

    it('hands out copies, so editing a hook given or returned does not change the store', async () => {
      const hook = newHook('alice');
      const original = structuredClone(hook);
      (await repo.insert(hook, 10))!.status.enabled = true;
      hook.definition.name = 'edited input';
      (await repo.get('alice', hook.uuid))!.status.occurrence_count = 5;
      (await repo.list('alice', 0, 1)).results[0].definition.action.url = 'https://evil.example.com';
      (await repo.listAll())[0].status.enabled = true;
      (await repo.update('alice', hook.uuid, (latest) => latest))!.definition.filters.events.length = 0;
      (await repo.updateMany({ owner: 'alice' }, (latest) => latest))[0].status.status = 'expired';
      expect(await repo.get('alice', hook.uuid)).to.deep.equal(original);
    });

    describe('live stream', () => liveStreamCases(() => subject));
    describe('changes', () => hookChangeCases(() => subject));
    describe('durability', () => hookDurabilityCases(() => subject));
  });
}
