import { expect } from 'chai';
import { BodyGoneError, MemoryOutbox } from '../../../adapters/outbox/index.js';
import {
  T0,
  asDue,
  attemptAt,
  deliveryQueueContract,
  drain,
  outgoing,
} from '../../contracts/delivery-queue.contract.js';

deliveryQueueContract(
  'MemoryOutbox',
  async () => ({ queue: new MemoryOutbox(), cleanup: async () => undefined }),
  { persistent: false },
);

describe('MemoryOutbox', () => {
  it('hands out a payload with its body as the text serializePayload makes of it', async () => {
    const outbox = new MemoryOutbox();
    const p = outgoing('h1', { pad: 1000 });
    await outbox.enqueue([p]);
    const [due] = await outbox.due(T0, 1, new Set());
    expect(due.payload).to.deep.equal(asDue(p));
  });

  it('tells listeners after an enqueue that added something, and not after one that added nothing', async () => {
    const outbox = new MemoryOutbox();
    let calls = 0;
    const stop = outbox.onEnqueued(() => calls++);
    const p = outgoing('h1');
    await outbox.enqueue([p]);
    await outbox.enqueue([p]);
    await outbox.enqueue([]);
    expect(calls).to.equal(1);
    stop();
    await outbox.enqueue([outgoing('h1')]);
    expect(calls).to.equal(1);
  });

  it('shows every payload in enqueue order, and take() hands the pending ones over as delivered', async () => {
    const outbox = new MemoryOutbox();
    const [a, b, c] = [outgoing('h1'), outgoing('h2'), outgoing('h1')];
    await outbox.enqueue([a, b, c]);
    await outbox.recordAttempt(b.id, attemptAt(T0, 200), { state: 'delivered' });
    expect(outbox.all()).to.deep.equal([a, b, c]);
    expect(outbox.take()).to.deep.equal([a, c]);
    expect(outbox.take()).to.deep.equal([]);
    expect(await outbox.get('h1', c.id)).to.include({ state: 'delivered' });
    expect(await outbox.nextDueAt()).to.equal(undefined);
  });

  it('remembers only the most recent blocks of each hook for rollbacks', async () => {
    const outbox = new MemoryOutbox({ sentBlocksPerHook: 3 });
    for (let i = 1; i <= 5; i++)
      await outbox.enqueue([outgoing('h1', { apply: [{ index: i, hash: `0x${i}`, tx_indexes: [i] }] })]);
    const sent = await outbox.sentApplies(['0x1', '0x2', '0x3', '0x4', '0x5']);
    expect([...sent.get('h1')!.keys()]).to.deep.equal(['0x3', '0x4', '0x5']);
  });

  it('lets go of a delivered body after the grace period and then refuses to redeliver it', async () => {
    const outbox = new MemoryOutbox({ keepDeliveredBodiesMs: 1000 });
    const [done, failed, recent] = [outgoing('h1'), outgoing('h1'), outgoing('h2')];
    await outbox.enqueue([done, failed, recent]);
    await outbox.recordAttempt(done.id, attemptAt(T0 + 10, 200), { state: 'delivered' });
    await outbox.recordAttempt(failed.id, attemptAt(T0 + 10), { state: 'failed', reason: 'no' });
    await outbox.recordAttempt(recent.id, attemptAt(T0 + 4000, 200), { state: 'delivered' });
    await outbox.enqueue([outgoing('h3', { created_at: T0 + 5000 })]);
    expect(await outbox.prune(T0 - 1)).to.equal(0);

    const refused = await outbox.redeliver('h1', done.id, T0 + 6000).catch((err: unknown) => err);
    expect(refused).to.be.instanceOf(BodyGoneError);
    expect(refused).to.include({ name: 'BodyGoneError', deliveryId: done.id });
    expect(await outbox.get('h1', done.id)).to.include({ state: 'delivered' });
    expect(await outbox.redeliver('h1', failed.id, T0 + 6000)).to.include({ state: 'pending' });
    expect(await outbox.redeliver('h2', recent.id, T0 + 6000)).to.include({ state: 'pending' });
    expect(outbox.all().map((p) => p.id)).to.not.include(done.id);
  });

  it('keeps every hook in order while draining 1,000 hooks of 100 payloads with scattered retries', async function () {
    // 100,000 payloads: a few seconds on a quiet machine, several times that on a busy one.
    this.timeout(120_000);
    const outbox = new MemoryOutbox();
    const hooks = Array.from({ length: 1000 }, (_, h) => `hook-${h}`);
    for (let round = 0; round < 100; round++)
      await outbox.enqueue(
        hooks.map((hook, h) => outgoing(hook, { id: `${hook}#${round}`, created_at: T0 + h })),
      );
    const sent = new Map<string, number[]>(hooks.map((hook) => [hook, []]));
    let now = T0 + 1000;
    let step = 0;
    for (;;) {
      const due = await outbox.due(now, 256, new Set());
      if (due.length === 0) {
        const next = await outbox.nextDueAt();
        if (next === undefined) break;
        now = next;
        continue;
      }
      for (const { payload, attempts } of due) {
        // Every seventh first try fails and is retried a little later: it must stay its hook's head.
        if (++step % 7 === 0 && attempts === 0) {
          await outbox.recordAttempt(payload.id, attemptAt(now), {
            state: 'pending',
            next_attempt_at: now + 5,
          });
          continue;
        }
        await outbox.recordAttempt(payload.id, attemptAt(now, 200), { state: 'delivered' });
        sent.get(payload.hook_uuid)!.push(Number(payload.id.split('#')[1]));
      }
      now += 1;
    }
    const inOrder = Array.from({ length: 100 }, (_, i) => i);
    for (const hook of hooks) expect(sent.get(hook), hook).to.deep.equal(inOrder);
    expect(await drain(outbox)).to.deep.equal([]);
  });
});
