import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { StoredHook } from '../../core/hooks/record.js';
import type { HookRepository } from '../../core/ports/hook-repository.js';
import type { HookRepositorySubject } from './hook-repository.contract.js';
import {
  countOccurrence,
  insertAll,
  newHook,
  streaming,
  URL_A,
  URL_B,
  uuidsOf,
} from './hook-repository-fixtures.js';

/**
 * How every HookRepository changes stored hooks: one at a time, in bulk, by a live step, and by
 * deleting. Run inside the hook repository contract, on its fresh store.
 */
export function hookChangeCases(current: () => HookRepositorySubject): void {
  let repo: HookRepository;

  beforeEach(() => {
    repo = current().repo;
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

    it('stores nothing of a step whose payloads failed to queue, and fails with their reason', async () => {
      const a = newHook('alice');
      await insertAll(repo, [a]);
      const before = await repo.liveProgress();
      const failure = new Error('payloads not queued');
      const queued = Promise.reject(failure);
      queued.catch(() => undefined);
      const [outcome] = await Promise.allSettled([
        repo.recordLiveStep({ blocks: 1, height: 1, at: 10 }, [a.uuid], countOccurrence, queued),
      ]);
      expect(outcome).to.deep.include({ status: 'rejected', reason: failure });
      expect(await repo.liveProgress()).to.deep.equal(before);
      expect((await repo.get('alice', a.uuid))!.status.occurrence_count).to.equal(0);
    });

    it('stores a step once its payloads are queued', async () => {
      const a = newHook('alice');
      await insertAll(repo, [a]);
      let queue: () => void = () => undefined;
      const queued = new Promise<void>((resolve) => (queue = resolve));
      const recording = repo.recordLiveStep(
        { blocks: 1, height: 1, at: 10 },
        [a.uuid],
        countOccurrence,
        queued,
      );
      queue();
      expect((await recording).map((h) => h.uuid)).to.deep.equal([a.uuid]);
      expect((await repo.liveProgress()).evaluated).to.equal(1);
      expect((await repo.get('alice', a.uuid))!.status.occurrence_count).to.equal(1);
    });

    it('leaves a hook alone when the change returns undefined', async () => {
      const a = newHook('alice');
      await insertAll(repo, [a]);
      expect(await repo.recordLiveStep(noBlocks, [a.uuid], () => undefined)).to.deep.equal([]);
    });

    it('keeps the store apart from the hook a change edits in place, with and without a delivery state', async () => {
      const [a, b] = [newHook('alice'), newHook('bob')];
      await insertAll(repo, [a, b]);
      await repo.update('bob', b.uuid, (hook) => ({
        ...hook,
        delivery: { resuming: { from_block_height: 5, next_block_height: 6 } },
      }));
      // The stream moves on, so each hook is handed over with its evaluations brought up to it.
      await repo.recordLiveStep({ blocks: 1, height: 1, at: 10 }, [], () => undefined);
      await repo.recordLiveStep(noBlocks, [a.uuid, b.uuid], (hook) => {
        hook.status.occurrence_count = 42;
        if (hook.delivery?.resuming) hook.delivery.resuming.next_block_height = 42;
        return undefined;
      });
      expect((await repo.get('alice', a.uuid))!.status.occurrence_count).to.equal(0);
      const bob = (await repo.get('bob', b.uuid))!;
      expect(bob.status.occurrence_count).to.equal(0);
      expect(bob.delivery?.resuming?.next_block_height).to.equal(6);
    });

    it('keeps status and delivery changes apart from the objects the caller holds afterwards', async () => {
      const a = newHook('alice');
      await insertAll(repo, [a]);
      const [written] = await repo.recordLiveStep(noBlocks, [a.uuid], (hook) => ({
        ...countOccurrence(hook),
        delivery: { resuming: { from_block_height: 5, next_block_height: 6 } },
      }));
      written.status.occurrence_count = 99;
      written.delivery!.resuming!.next_block_height = 99;
      const stored = (await repo.get('alice', a.uuid))!;
      expect(stored.status.occurrence_count).to.equal(1);
      expect(stored.delivery?.resuming).to.deep.equal({ from_block_height: 5, next_block_height: 6 });
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
      expect(await selected({ owner: 'alice', statuses: ['new'] })).to.deep.equal(uuidsOf([newAtA, newAtB]));
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
}
