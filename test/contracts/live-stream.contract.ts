import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { HookOptions } from '../../core/hooks/definition.js';
import { createHook, setEnabled } from '../../core/hooks/lifecycle.js';
import type { StoredHook } from '../../core/hooks/record.js';
import type { HookRepository } from '../../core/ports/hook-repository.js';
import { sampleDefinition } from '../support/definitions.js';
import type { HookRepositorySubject } from './hook-repository.contract.js';

let clockMs = 1_700_000_000_000;

/** A new hook of alice's, enabled unless said otherwise. */
function newHook(options: HookOptions = { enable_on_registration: true }): StoredHook {
  const definition = sampleDefinition({ options }) as StoredHook['definition'];
  return createHook('alice', randomUUID(), definition, clockMs++);
}

/** A step of `blocks` live blocks topped by height `height` at unix second `height * 10`. */
const step = (blocks: number, height: number) => ({ blocks, height, at: height * 10 });

/** The counters and status a hook shows. */
async function shown(repo: HookRepository, hook: StoredHook) {
  const { status } = (await repo.get('alice', hook.uuid))!;
  const { evaluated_block_count, last_evaluated_block_height, last_evaluated_at, enabled } = status;
  return {
    status: status.status,
    enabled,
    evaluated_block_count,
    last_evaluated_block_height,
    last_evaluated_at,
  };
}

/**
 * How every HookRepository keeps live evaluation counters as a position on the live stream: a step
 * writes no hook it is not given, yet every read shows each live hook's counters moved on by it. Run
 * inside the hook repository contract, on its fresh store.
 */
export function liveStreamCases(current: () => HookRepositorySubject): void {
  let repo: HookRepository;
  beforeEach(() => {
    repo = current().repo;
  });

  it('starts a fresh store at no live blocks evaluated', async () => {
    expect(await repo.liveProgress()).to.deep.equal({ evaluated: 0, last_height: null, last_at: null });
  });

  it('shows every live hook evaluated by a step it was not named in, and no disabled hook', async () => {
    const [live, disabled] = [newHook(), newHook({})];
    await repo.insert(live, 10);
    await repo.insert(disabled, 10);
    await repo.recordLiveStep(step(2, 7), [], () => expect.fail('no hook is named'));
    expect(await repo.liveProgress()).to.deep.equal({ evaluated: 2, last_height: 7, last_at: 70 });
    expect(await shown(repo, live)).to.deep.equal({
      status: 'streaming',
      enabled: true,
      evaluated_block_count: 2,
      last_evaluated_block_height: 7,
      last_evaluated_at: 70,
    });
    expect(await shown(repo, disabled)).to.include({ status: 'new', evaluated_block_count: 0 });
    const listed = (await repo.list('alice', 0, 10)).results.map((hook) => hook.status.evaluated_block_count);
    expect(listed).to.deep.equal([2, 0]);
    expect((await repo.listAll()).map((hook) => hook.status.evaluated_block_count)).to.have.members([2, 0]);
    expect((await repo.getByUuids([live.uuid]))[0].status.evaluated_block_count).to.equal(2);
  });

  it('gives a named hook to the change as of the progress before the step, and stores its result as after', async () => {
    const hook = newHook();
    await repo.insert(hook, 10);
    await repo.recordLiveStep(step(1, 5), [], () => undefined);
    const seen: number[] = [];
    await repo.recordLiveStep(step(1, 6), [hook.uuid], (latest) => {
      seen.push(latest.status.evaluated_block_count);
      return { ...latest, status: { ...latest.status, evaluated_block_count: 2, occurrence_count: 1 } };
    });
    expect(seen).to.deep.equal([1]);
    expect((await repo.get('alice', hook.uuid))!.status).to.include({
      evaluated_block_count: 2,
      occurrence_count: 1,
    });
    await repo.recordLiveStep(step(3, 9), [], () => undefined);
    expect(await shown(repo, hook)).to.include({
      evaluated_block_count: 5,
      last_evaluated_block_height: 9,
    });
  });

  it('counts only the steps after a hook is enabled, and keeps the counters a disabled hook had', async () => {
    const hook = newHook({});
    await repo.insert(hook, 10);
    await repo.recordLiveStep(step(4, 4), [], () => undefined);
    await repo.update('alice', hook.uuid, (latest) => setEnabled(latest, true));
    expect(await shown(repo, hook)).to.include({ status: 'new', evaluated_block_count: 0 });
    await repo.recordLiveStep(step(1, 5), [], () => undefined);
    await repo.updateMany({ owner: 'alice' }, (latest) => setEnabled(latest, false));
    await repo.recordLiveStep(step(2, 7), [], () => undefined);
    expect(await shown(repo, hook)).to.deep.equal({
      status: 'streaming',
      enabled: false,
      evaluated_block_count: 1,
      last_evaluated_block_height: 5,
      last_evaluated_at: 50,
    });
  });

  it('shows a hook expired once the stream passes its evaluation limit', async () => {
    const hook = newHook({ enable_on_registration: true, expire_after_evaluations: 3 });
    await repo.insert(hook, 10);
    await repo.recordLiveStep(step(5, 5), [], () => undefined);
    expect(await shown(repo, hook)).to.include({
      status: 'expired',
      enabled: false,
      evaluated_block_count: 3,
    });
  });

  it('selects by the status a hook shows, so a live hook never written since is streaming', async () => {
    const hook = newHook();
    await repo.insert(hook, 10);
    await repo.recordLiveStep(step(1, 1), [], () => undefined);
    expect(await repo.updateMany({ owner: 'alice', statuses: ['new'] }, (latest) => latest)).to.deep.equal(
      [],
    );
    const changed = await repo.updateMany({ owner: 'alice', statuses: ['streaming'] }, (latest) => latest);
    expect(changed.map((h) => h.status.evaluated_block_count)).to.deep.equal([1]);
  });

  it('keeps the progress and each hook’s position across reopening the store', async () => {
    const [early, late] = [newHook(), newHook()];
    await repo.insert(early, 10);
    await repo.recordLiveStep(step(3, 3), [], () => undefined);
    await repo.insert(late, 10);
    await repo.recordLiveStep(step(1, 4), [], () => undefined);
    const reopened = await current().reopen!();
    expect(await reopened.liveProgress()).to.deep.equal({ evaluated: 4, last_height: 4, last_at: 40 });
    expect(await shown(reopened, early)).to.include({ evaluated_block_count: 4 });
    expect(await shown(reopened, late)).to.include({ evaluated_block_count: 1 });
  });

  it('keeps the event of the last step with the progress, across reopening the store', async () => {
    const hook = newHook();
    await repo.insert(hook, 10);
    await repo.recordLiveStep({ ...step(1, 5), eventId: 41 }, [], () => undefined);
    expect(await repo.liveProgress()).to.deep.equal({
      evaluated: 1,
      last_height: 5,
      last_at: 50,
      event_id: 41,
    });
    // A rollback alone moves no block, yet is the last step: its event is noted.
    await repo.recordLiveStep({ blocks: 0, height: 0, at: 60, eventId: 42 }, [hook.uuid], (h) => h);
    const reopened = await current().reopen!();
    expect(await reopened.liveProgress()).to.deep.equal({
      evaluated: 1,
      last_height: 5,
      last_at: 50,
      event_id: 42,
    });
  });

  it('forgets the event of the last step once a step names none', async () => {
    await repo.recordLiveStep({ ...step(1, 5), eventId: 41 }, [], () => undefined);
    await repo.recordLiveStep(step(1, 6), [], () => undefined);
    expect(await repo.liveProgress()).to.deep.equal({ evaluated: 2, last_height: 6, last_at: 60 });
    const reopened = await current().reopen!();
    expect(await reopened.liveProgress()).to.deep.equal({ evaluated: 2, last_height: 6, last_at: 60 });
  });
}
