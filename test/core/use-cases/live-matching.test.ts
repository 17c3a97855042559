import { expect } from 'chai';
import { interruptHook } from '../../../core/hooks/lifecycle.js';
import { HOOK_REPOSITORY, type HookRepository } from '../../../core/ports/hook-repository.js';
import { EvaluationDelivery } from '../../../core/use-cases/evaluation-delivery.js';
import {
  ChainBuilder,
  TEST_KEYS,
  addressOf,
  events,
  stxTransfer,
  withEvents,
} from '../../support/block-builder.js';
import { validateChainhookEvent } from '../../support/chainhook-event-schema.js';
import { startLiveStack, type LiveStack } from '../../support/live-stack.js';

const FT = 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9.token-alex::alex';
const bob = addressOf(TEST_KEYS.bob);
const alice = addressOf(TEST_KEYS.alice);

/** A block builder whose every block holds one STX transfer carrying an FT transfer event too. */
async function busyChain() {
  const chain = new ChainBuilder();
  const tx = withEvents(
    await stxTransfer({ recipient: bob, amount: 7n }),
    events.ftTransfer({ asset: FT, sender: alice, recipient: bob, amount: 3n }),
  );
  return { chain, next: () => chain.next({ transactions: [tx] }) };
}

describe('LiveMatching', () => {
  let s: LiveStack;
  beforeEach(async () => {
    s = await startLiveStack();
  });
  afterEach(async () => s.stop());

  it('queues one payload per matching hook per block, valid against ChainhookEventSchema', async () => {
    const { next } = await busyChain();
    const hook = await s.register({
      filters: { events: [{ type: 'ft_transfer', asset_identifier: FT }] },
      options: { enable_on_registration: true, decode_clarity_values: true },
    });
    const other = await s.register({
      filters: { events: [{ type: 'nft_mint' }] },
      options: { enable_on_registration: true },
    });
    const b1 = next();
    await s.ingest(b1);
    const payloads = s.queue.all();
    expect(payloads.map((p) => p.hook_uuid)).to.deep.equal([hook.uuid]);
    expect(payloads[0].body.event.apply[0].block_identifier.hash).to.equal(b1.index_block_hash);
    expect(validateChainhookEvent(payloads[0].body)).to.deep.equal([]);
    expect((await s.hook(other.uuid)).status).to.include({ status: 'streaming', evaluated_block_count: 1 });
  });

  it('matches against the hooks as stored after a resync, not as it was last told of them', async () => {
    const { next } = await busyChain();
    const told = await s.register({
      filters: { events: [{ type: 'stx_event' }] },
      options: { enable_on_registration: true },
    });
    const untold = await s.register({ filters: { events: [{ type: 'stx_event' }] } });
    // Changed in the store by another process whose notifications never arrived.
    const repository = s.stackhooks.container.get<HookRepository>(HOOK_REPOSITORY);
    for (const [uuid, enabled] of [
      [told.uuid, false],
      [untold.uuid, true],
    ] as const) {
      await repository.update(s.owner, uuid, (hook) => ({ ...hook, status: { ...hook.status, enabled } }));
    }
    s.stackhooks.liveMatching.resync();
    await s.ingest(next());
    expect(s.queue.all().map((p) => p.hook_uuid)).to.deep.equal([untold.uuid]);
  });

  it('matches a live hook by the filters a PATCH gave it from the next block, after blocks it was written by', async () => {
    const { next } = await busyChain();
    const hook = await s.register({
      filters: { events: [{ type: 'ft_transfer', asset_identifier: FT }] },
      options: { enable_on_registration: true },
    });
    await s.ingest(next(), next());
    expect(s.queue.all()).to.have.length(2);
    await s.stackhooks.registry.update(s.owner, hook.uuid, {
      filters: { events: [{ type: 'nft_mint' }] },
    });
    await s.ingest(next());
    expect(s.queue.all()).to.have.length(2);
    await s.stackhooks.registry.update(s.owner, hook.uuid, {
      filters: { events: [{ type: 'stx_transfer' }] },
    });
    await s.ingest(next());
    expect(s.queue.all()).to.have.length(3);
  });

  it('keeps a hook interrupted while its block was being counted out of the next blocks', async () => {
    const { next } = await busyChain();
    const hook = await s.register({
      filters: { events: [{ type: 'stx_event' }] },
      options: { enable_on_registration: true },
    });
    const repository = s.stackhooks.container.get<HookRepository>(HOOK_REPOSITORY);
    const recordLiveStep = repository.recordLiveStep.bind(repository);
    let interruptOnce = true;
    // Delivery interrupts the hook after the step read it and before the step's answer comes back.
    repository.recordLiveStep = async (...args) => {
      const counted = await recordLiveStep(...args);
      if (interruptOnce) {
        interruptOnce = false;
        const interrupted = await repository.update(s.owner, hook.uuid, (stored) =>
          interruptHook(stored, { first_missed_block_height: 1, interrupted_at: 0, reason: 'test' }),
        );
        s.stackhooks.liveMatching.hookChanged(hook.uuid, interrupted);
      }
      return counted;
    };
    await s.ingest(next());
    await s.ingest(next());
    expect(s.queue.all().map((p) => p.apply[0].index)).to.deep.equal([1]);
  });

  it('tells that a chain event waits for its turn behind another step, until its turn comes', async () => {
    const { next } = await busyChain();
    const live = s.stackhooks.liveMatching;
    let release: () => void = () => undefined;
    const holding = live.exclusive(() => new Promise<void>((resolve) => (release = resolve)));
    expect(live.liveWorkWaiting).to.equal(false);
    const ingesting = s.ingest(next());
    while (!live.liveWorkWaiting) await new Promise((resolve) => setTimeout(resolve, 1));
    release();
    await holding;
    await ingesting;
    expect(live.liveWorkWaiting).to.equal(false);
  });

  it('makes the first live block move an enabled hook from new to streaming and counts it', async () => {
    const { next } = await busyChain();
    const hook = await s.register({ options: { enable_on_registration: true } });
    const b1 = next();
    await s.ingest(b1);
    expect((await s.hook(hook.uuid)).status).to.include({
      status: 'streaming',
      evaluated_block_count: 1,
      last_evaluated_block_height: b1.block_height,
    });
  });

  it('leaves disabled hooks unevaluated', async () => {
    const { next } = await busyChain();
    const hook = await s.register({ filters: { events: [{ type: 'stx_event' }] } });
    await s.ingest(next(), next());
    expect((await s.hook(hook.uuid)).status).to.include({ status: 'new', evaluated_block_count: 0 });
    expect(s.queue.all()).to.deep.equal([]);
  });

  it('expires a hook after N evaluated blocks, counting the last one sent, and evaluates nothing after', async () => {
    const { next } = await busyChain();
    const hook = await s.register({
      filters: { events: [{ type: 'stx_event' }] },
      options: { enable_on_registration: true, expire_after_evaluations: 3 },
    });
    const blocks = [next(), next(), next(), next(), next()];
    await s.ingest(...blocks);
    const record = await s.hook(hook.uuid);
    expect(record.status).to.include({
      status: 'expired',
      enabled: false,
      evaluated_block_count: 3,
      last_evaluated_block_height: blocks[2].block_height,
      // The block that reaches the limit was still sent, so it counts as an occurrence.
      occurrence_count: 3,
      last_occurrence_block_height: blocks[2].block_height,
    });
    expect(s.queue.all().length).to.equal(3);
  });

  it('expires a hook after N occurrences and sends nothing after', async () => {
    const { next } = await busyChain();
    const hook = await s.register({
      filters: { events: [{ type: 'ft_event', asset_identifier: FT }] },
      options: { enable_on_registration: true, expire_after_occurrences: 2 },
    });
    await s.ingest(next(), next(), next(), next());
    const record = await s.hook(hook.uuid);
    expect(record.status).to.include({ status: 'expired', enabled: false, occurrence_count: 2 });
    expect(s.queue.all().filter((p) => p.hook_uuid === hook.uuid).length).to.equal(2);
  });

  it('refuses to enable an expired hook until a PATCH lifts the limit, then streams again', async () => {
    const { next } = await busyChain();
    const hook = await s.register({
      filters: { events: [{ type: 'stx_event' }] },
      options: { enable_on_registration: true, expire_after_evaluations: 1 },
    });
    await s.ingest(next());
    const refused = await s.stackhooks.registry
      .enable(s.owner, hook.uuid, { enabled: true })
      .catch((e: Error) => e);
    expect(refused).to.have.property('code', 'conflict');
    await s.stackhooks.registry.update(s.owner, hook.uuid, { options: { expire_after_evaluations: 10 } });
    await s.stackhooks.registry.enable(s.owner, hook.uuid, { enabled: true });
    await s.ingest(next());
    expect((await s.hook(hook.uuid)).status).to.include({
      status: 'streaming',
      enabled: true,
      evaluated_block_count: 2,
    });
  });

  it('sends a rollback of the blocks a hook was sent when a fork replaces them, canonical false', async () => {
    const { chain, next } = await busyChain();
    const hook = await s.register({
      filters: { events: [{ type: 'ft_transfer' }] },
      options: { enable_on_registration: true, include_block_metadata: true },
    });
    const b1 = next();
    const b2 = next();
    await s.ingest(b1, b2);
    const sibling = chain.forkFrom(b1.index_block_hash).next();
    await s.ingest(sibling);
    const last = s.queue.all().at(-1)!;
    expect(last.hook_uuid).to.equal(hook.uuid);
    expect(last.body.event.rollback.map((b) => b.block_identifier.hash)).to.deep.equal([b2.index_block_hash]);
    expect(last.body.event.rollback[0].metadata?.canonical).to.equal(false);
    expect(last.body.event.rollback[0].transactions[0].metadata.canonical).to.equal(false);
    expect(last.body.event.apply).to.deep.equal([]);
    expect(validateChainhookEvent(last.body)).to.deep.equal([]);
  });

  it('rolls back only blocks a hook was sent in an apply', async () => {
    const { chain, next } = await busyChain();
    const b1 = next();
    const b2 = next();
    await s.ingest(b1, b2);
    const late = await s.register({
      filters: { events: [{ type: 'ft_transfer' }] },
      options: { enable_on_registration: true },
    });
    await s.ingest(chain.forkFrom(b1.index_block_hash).next());
    expect(s.queue.all().filter((p) => p.hook_uuid === late.uuid)).to.deep.equal([]);
  });

  it('drops the queued payloads of a deleted hook', async () => {
    const { next } = await busyChain();
    const hook = await s.register({
      filters: { events: [{ type: 'stx_event' }] },
      options: { enable_on_registration: true },
    });
    await s.ingest(next());
    expect(s.queue.all().length).to.equal(1);
    await s.stackhooks.registry.delete(s.owner, hook.uuid);
    expect(s.queue.all()).to.deep.equal([]);
    await s.ingest(next());
    expect(s.queue.all()).to.deep.equal([]);
  });

  it('delivers an evaluation of an archived block without changing counters or status', async () => {
    const { next } = await busyChain();
    const hook = await s.register({ filters: { events: [{ type: 'ft_transfer', asset_identifier: FT }] } });
    const b1 = next();
    await s.ingest(b1);
    const before = await s.hook(hook.uuid);
    await s.stackhooks.evaluations.request(s.owner, hook.uuid, { block_height: b1.block_height });
    await s.stackhooks.container.get(EvaluationDelivery).idle();
    const [payload] = s.queue.all();
    expect(payload).to.include({ hook_uuid: hook.uuid, kind: 'evaluation' });
    expect(payload.body.event.apply.map((b) => b.block_identifier.hash)).to.deep.equal([b1.index_block_hash]);
    expect(payload.body.event.rollback).to.deep.equal([]);
    expect(await s.hook(hook.uuid)).to.deep.equal(before);
  });

  it('sends nothing for an evaluation that matches nothing', async () => {
    const { next } = await busyChain();
    const hook = await s.register({ filters: { events: [{ type: 'nft_burn' }] } });
    const b1 = next();
    await s.ingest(b1);
    await s.stackhooks.evaluations.request(s.owner, hook.uuid, {
      index_block_hash: b1.index_block_hash.slice(2),
    });
    await s.stackhooks.container.get(EvaluationDelivery).idle();
    expect(s.queue.all()).to.deep.equal([]);
  });
});
