import { expect } from 'chai';
import { interruptHook, setEnabled } from '../../core/hooks/lifecycle.js';
import type { HookRepository } from '../../core/ports/hook-repository.js';
import type { HookRepositorySubject } from './hook-repository.contract.js';
import { countOccurrence, insertAll, newHook, streaming, URL_B } from './hook-repository-fixtures.js';
import { skipBecause } from '../support/skip-because.js';

/**
 * How every HookRepository keeps what it acknowledged: across a clean reopen, across a crash at any
 * moment (the store's files or database as a crash leaves them), and without the change a crash cut
 * off mid-write. Run inside the hook repository contract, on its fresh store.
 */
export function hookDurabilityCases(current: () => HookRepositorySubject): void {
  let subject: HookRepositorySubject;
  let repo: HookRepository;

  beforeEach(() => {
    subject = current();
    repo = subject.repo;
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
    expect(await reopened.insert(newHook('alice'), 2)).to.equal(undefined);
  });

  it('keeps every acknowledged insert, update and delete when it crashes, and goes on from there', async function () {
    if (!subject.crash) skipBecause(this, 'this store cannot be crashed from a test');
    const hooks = [newHook('alice'), newHook('alice', { url: URL_B }), newHook('bob')];
    await insertAll(repo, hooks);
    await repo.update('alice', hooks[0].uuid, streaming);
    await repo.updateMany({ owner: 'alice', webhook_url: URL_B }, countOccurrence);
    await repo.delete('bob', hooks[2].uuid);

    const crashed = await subject.crash!();
    const expected = [streaming(hooks[0]), countOccurrence(hooks[1])];
    expect(await crashed.list('alice', 0, 10)).to.deep.equal({ total: 2, results: expected });
    expect(await crashed.get('bob', hooks[2].uuid)).to.equal(undefined);

    const later = newHook('alice');
    await crashed.insert(later, 10);
    await crashed.update('alice', hooks[0].uuid, countOccurrence);
    const again = await subject.crash!();
    expect(await again.list('alice', 0, 10)).to.deep.equal({
      total: 3,
      results: [countOccurrence(expected[0]), expected[1], later],
    });
  });

  it('leaves out an insert a crash cut off mid-write, keeps the ones before it, and takes later ones', async function () {
    if (!subject.crashWritingInsert || !subject.crash)
      skipBecause(this, 'this store cannot be crashed in the middle of an insert from a test');
    const kept = [newHook('alice'), newHook('alice')];
    await insertAll(repo, kept);
    const cut = newHook('alice');

    const crashed = await subject.crashWritingInsert!(cut);
    expect(await crashed.get('alice', cut.uuid)).to.equal(undefined);
    expect(await crashed.list('alice', 0, 10)).to.deep.equal({ total: 2, results: kept });

    const later = newHook('alice');
    expect(await crashed.insert(later, 3)).to.deep.equal(later);
    const again = await subject.crash!();
    expect(await again.list('alice', 0, 10)).to.deep.equal({ total: 3, results: [...kept, later] });
  });
}
