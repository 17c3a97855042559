import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { HookDefinition } from '../../core/hooks/definition.js';
import { createHook, interruptHook, setEnabled } from '../../core/hooks/lifecycle.js';
import type { StoredHook } from '../../core/hooks/record.js';
import type { HookRepository } from '../../core/ports/hook-repository.js';
import { liveStreamCases } from './live-stream.contract.js';

/** A repository under test; `reopen` (when the store persists) closes it and opens the same data again. */
export type HookRepositorySubject = {
  repo: HookRepository;
  reopen?: () => Promise<HookRepository>;
  cleanup: () => Promise<void>;
};

const URL_A = 'https://a.example.com/hook';
const URL_B = 'https://b.example.com/hook';
let clockMs = 1_700_000_000_000;

function definition(url: string): HookDefinition {
  return {
    name: 'contract test',
    version: '1',
    chain: 'stacks',
    network: 'mainnet',
    filters: { events: [{ type: 'stx_transfer' }] },
    action: { type: 'http_post', url },
  };
}

/** A new hook; each call is a millisecond later than the last unless `atMs` says otherwise. */
function newHook(owner: string, options: { url?: string; atMs?: number; uuid?: string } = {}): StoredHook {
  return createHook(
    owner,
    options.uuid ?? randomUUID(),
    definition(options.url ?? URL_A),
    options.atMs ?? clockMs++,
  );
}

function streaming(hook: StoredHook): StoredHook {
  return { ...hook, status: { ...hook.status, status: 'streaming', enabled: true } };
}

function countOccurrence(hook: StoredHook): StoredHook {
  return { ...hook, status: { ...hook.status, occurrence_count: hook.status.occurrence_count + 1 } };
}

async function insertAll(repo: HookRepository, hooks: StoredHook[]): Promise<void> {
  for (const hook of hooks) expect(await repo.insert(hook, 1000)).to.equal(true);
}

const uuidsOf = (hooks: StoredHook[]): string[] => hooks.map((hook) => hook.uuid);

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

    it('returns an inserted hook from get exactly as it was given', async () => {
      const hook = newHook('alice');
      expect(await repo.insert(hook, 10)).to.equal(true);
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

    it('returns undefined from get for another owner’s hook or an unknown uuid', async () => {
      const hook = newHook('alice');
      await repo.insert(hook, 10);
      expect(await repo.get('bob', hook.uuid)).to.equal(undefined);
      expect(await repo.get('alice', randomUUID())).to.equal(undefined);
    });

    it('lists an owner’s hooks in pages, oldest first, with the owner’s total', async () => {
      const base = clockMs;
      clockMs += 100;
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
      expect(await repo.insert(refused, 2)).to.equal(false);
      expect(await repo.get('alice', refused.uuid)).to.equal(undefined);
      expect((await repo.list('alice', 0, 10)).total).to.equal(2);
      expect(await repo.insert(newHook('bob'), 2)).to.equal(true);

      await repo.delete('alice', kept[0].uuid);
      expect(await repo.insert(refused, 2)).to.equal(true);
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

    it('keeps every one of 200 concurrent updates to one hook', async () => {
      const hook = newHook('alice');
      await repo.insert(hook, 10);
      await Promise.all(Array.from({ length: 200 }, () => repo.update('alice', hook.uuid, countOccurrence)));
      expect((await repo.get('alice', hook.uuid))?.status.occurrence_count).to.equal(200);
    });

    it('leaves the hook unchanged and fails only that caller when a change throws', async () => {
      const hook = newHook('alice');
      await repo.insert(hook, 10);
      const failing = repo.update('alice', hook.uuid, (latest) => {
        // Editing the argument in place must not leak into the store either.
        latest.status.occurrence_count = 99;
        latest.definition.name = 'edited';
        throw new Error('change refused');
      });
      const [before, failed, after] = await Promise.allSettled([
        repo.update('alice', hook.uuid, countOccurrence),
        failing,
        repo.update('alice', hook.uuid, countOccurrence),
      ]);
      expect(before.status).to.equal('fulfilled');
      expect(after.status).to.equal('fulfilled');
      expect(failed).to.deep.include({ status: 'rejected' });
      expect((failed as PromiseRejectedResult).reason).to.have.property('message', 'change refused');
      const stored = await repo.get('alice', hook.uuid);
      expect(stored?.status.occurrence_count).to.equal(2);
      expect(stored?.definition).to.deep.equal(hook.definition);
    });

    it('returns the updated hook from update and undefined for another owner’s hook', async () => {
      const hook = newHook('alice');
      await repo.insert(hook, 10);
      expect(await repo.update('alice', hook.uuid, streaming)).to.deep.equal(streaming(hook));
      let called = false;
      const foreign = await repo.update('bob', hook.uuid, (latest) => ((called = true), latest));
      expect(foreign).to.equal(undefined);
      expect(called).to.equal(false);
      expect(await repo.update('alice', randomUUID(), streaming)).to.equal(undefined);
    });

    it("keeps a hook's delivery state (interruption, resume) through updates and reopening, and drops it when cleared", async function () {
      const hook = newHook('alice');
      await repo.insert(hook, 10);
      const interruption = {
        first_missed_block_height: 42,
        interrupted_at: 1_700_000_000,
        reason: 'HTTP 500',
      };
      const interrupted = await repo.update('alice', hook.uuid, (h) => interruptHook(h, interruption));
      expect(interrupted?.delivery).to.deep.equal({ interruption });
      const resumed = await repo.update('alice', hook.uuid, (h) => setEnabled(h, true, true));
      expect(resumed?.delivery).to.deep.equal({ resuming: { from_block_height: 42, next_block_height: 42 } });
      if (subject.reopen) repo = await subject.reopen();
      expect((await repo.get('alice', hook.uuid))?.delivery).to.deep.equal(resumed?.delivery);
      const live = await repo.update('alice', hook.uuid, (h) => setEnabled(h, true));
      expect(live).to.not.have.property('delivery');
      expect(await repo.get('alice', hook.uuid)).to.not.have.property('delivery');
    });

    it('rejects an update that changes the hook’s uuid or owner, storing nothing', async () => {
      const hook = newHook('alice');
      await repo.insert(hook, 10);
      const moved = repo.update('alice', hook.uuid, (latest) => ({ ...latest, owner: 'bob' }));
      await moved.then(
        () => expect.fail('the update was accepted'),
        (err: unknown) => expect(err).to.be.instanceOf(Error),
      );
      const renamed = repo.update('alice', hook.uuid, (latest) => ({ ...latest, uuid: randomUUID() }));
      await renamed.then(
        () => expect.fail('the update was accepted'),
        (err: unknown) => expect(err).to.be.instanceOf(Error),
      );
      expect(await repo.get('alice', hook.uuid)).to.deep.equal(hook);
      expect((await repo.list('bob', 0, 10)).total).to.equal(0);
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

    describe('recordLiveStep', () => {
      const noBlocks = { blocks: 0, height: 0, at: 0 };

      it('changes the named hooks of every owner in one step and skips unknown uuids', async () => {
        const [a, b, c] = [newHook('alice'), newHook('bob'), newHook('carol')];
        await insertAll(repo, [a, b, c]);
        const unknown = '00000000-0000-4000-8000-000000000000';
        const changed = await repo.recordLiveStep(noBlocks, [a.uuid, b.uuid, unknown], countOccurrence);
        expect(changed.map((h) => h.uuid).sort()).to.deep.equal([a.uuid, b.uuid].sort());
        expect((await repo.get('alice', a.uuid))!.status.occurrence_count).to.equal(1);
        expect((await repo.get('bob', b.uuid))!.status.occurrence_count).to.equal(1);
        expect((await repo.get('carol', c.uuid))!.status.occurrence_count).to.equal(0);
      });

      it('leaves a hook alone when the change returns undefined', async () => {
        const a = newHook('alice');
        await insertAll(repo, [a]);
        expect(await repo.recordLiveStep(noBlocks, [a.uuid], () => undefined)).to.deep.equal([]);
      });
    });

    describe('updateMany', () => {
      let newAtA: StoredHook;
      let streamingAtA: StoredHook;
      let newAtB: StoredHook;
      let bobsAtA: StoredHook;

      beforeEach(async () => {
        newAtA = newHook('alice', { url: URL_A });
        streamingAtA = newHook('alice', { url: URL_A });
        newAtB = newHook('alice', { url: URL_B });
        bobsAtA = newHook('bob', { url: URL_A });
        await insertAll(repo, [newAtA, streamingAtA, newAtB, bobsAtA]);
        await repo.update('alice', streamingAtA.uuid, streaming);
      });

      const selected = async (selection: Parameters<HookRepository['updateMany']>[0]): Promise<string[]> =>
        uuidsOf(await repo.updateMany(selection, countOccurrence));

      it('changes only the hooks that match uuids, webhook_url and statuses together', async () => {
        const everyUuid = uuidsOf([newAtA, streamingAtA, newAtB, bobsAtA]);
        const changed = await selected({
          owner: 'alice',
          uuids: everyUuid,
          webhook_url: URL_A,
          statuses: ['new'],
        });
        expect(changed).to.deep.equal([newAtA.uuid]);
        expect((await repo.get('alice', newAtA.uuid))?.status.occurrence_count).to.equal(1);
        expect((await repo.get('alice', streamingAtA.uuid))?.status.occurrence_count).to.equal(0);
        expect((await repo.get('alice', newAtB.uuid))?.status.occurrence_count).to.equal(0);
        expect((await repo.get('bob', bobsAtA.uuid))?.status.occurrence_count).to.equal(0);
      });

      it('applies each criterion on its own, oldest first, within the owner', async () => {
        expect(await selected({ owner: 'alice' })).to.deep.equal(uuidsOf([newAtA, streamingAtA, newAtB]));
        expect(await selected({ owner: 'alice', webhook_url: URL_A })).to.deep.equal(
          uuidsOf([newAtA, streamingAtA]),
        );
        expect(await selected({ owner: 'alice', statuses: ['new'] })).to.deep.equal(
          uuidsOf([newAtA, newAtB]),
        );
        expect(await selected({ owner: 'alice', uuids: [newAtB.uuid, newAtA.uuid] })).to.deep.equal(
          uuidsOf([newAtA, newAtB]),
        );
        expect(await selected({ owner: 'alice', uuids: [bobsAtA.uuid] })).to.deep.equal([]);
        expect(await selected({ owner: 'alice', webhook_url: 'https://a.example.com/hook/' })).to.deep.equal(
          [],
        );
        expect(await selected({ owner: 'alice', statuses: [] })).to.deep.equal([]);
      });

      it('skips the hooks for which the change returns undefined', async () => {
        const changed = await repo.updateMany({ owner: 'alice' }, (hook) =>
          hook.definition.action.url === URL_B ? undefined : streaming(hook),
        );
        expect(uuidsOf(changed)).to.deep.equal(uuidsOf([newAtA, streamingAtA]));
        expect((await repo.get('alice', newAtB.uuid))?.status.status).to.equal('new');
        expect((await repo.get('alice', newAtA.uuid))?.status.status).to.equal('streaming');
      });

      it('changes none of the selected hooks when the change throws for one of them', async () => {
        const before = await repo.list('alice', 0, 10);
        const failing = repo.updateMany({ owner: 'alice' }, (hook) => {
          if (hook.uuid === newAtB.uuid) throw new Error('change refused');
          return countOccurrence(hook);
        });
        await failing.then(
          () => expect.fail('updateMany succeeded'),
          (err: unknown) => expect(err).to.have.property('message', 'change refused'),
        );
        expect(await repo.list('alice', 0, 10)).to.deep.equal(before);
      });
    });

    it('deletes an owner’s hook and refuses to delete another owner’s', async () => {
      const [kept, deleted] = [newHook('alice'), newHook('alice')];
      await insertAll(repo, [kept, deleted]);
      expect(await repo.delete('bob', deleted.uuid)).to.equal(false);
      expect(await repo.delete('alice', deleted.uuid)).to.equal(true);
      expect(await repo.delete('alice', deleted.uuid)).to.equal(false);
      expect(await repo.get('alice', deleted.uuid)).to.equal(undefined);
      expect(await repo.list('alice', 0, 10)).to.deep.equal({ total: 1, results: [kept] });
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
      await repo.insert(hook, 10);
      hook.definition.name = 'edited input';
      (await repo.get('alice', hook.uuid))!.status.occurrence_count = 5;
      (await repo.list('alice', 0, 1)).results[0].definition.action.url = 'https://evil.example.com';
      (await repo.listAll())[0].status.enabled = true;
      (await repo.update('alice', hook.uuid, (latest) => latest))!.definition.filters.events.length = 0;
      (await repo.updateMany({ owner: 'alice' }, (latest) => latest))[0].status.status = 'expired';
      expect(await repo.get('alice', hook.uuid)).to.deep.equal(original);
    });

    describe('live stream', () => liveStreamCases(() => subject));

    it('keeps inserts, updates and deletes across reopening the store', async function () {
      if (!subject.reopen) throw new Error('this store under test must give reopen');
      const hooks = [newHook('alice'), newHook('alice', { url: URL_B }), newHook('bob')];
      await insertAll(repo, hooks);
      await repo.update('alice', hooks[0].uuid, streaming);
      await repo.updateMany({ owner: 'alice', webhook_url: URL_B }, countOccurrence);
      await repo.delete('bob', hooks[2].uuid);

      const reopened = await subject.reopen!();
      expect(await reopened.list('alice', 0, 10)).to.deep.equal({
        total: 2,
        results: [streaming(hooks[0]), countOccurrence(hooks[1])],
      });
      expect(await reopened.listAll()).to.have.length(2);
      expect(await reopened.get('bob', hooks[2].uuid)).to.equal(undefined);
      expect(await reopened.insert(newHook('alice'), 2)).to.equal(false);
    });
  });
}
