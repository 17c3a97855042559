import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { T0, asDue, attemptAt, drain, outgoing } from '../../contracts/delivery-queue.contract.js';
import { outboxFolderPerTest } from '../../support/outbox-folder.js';

const none: ReadonlySet<string> = new Set();

describe('FsOutbox with long queues and settled payloads on disk', () => {
  let dir: string;
  const open = outboxFolderPerTest((fresh) => (dir = fresh));

  it("keeps a hook's first pending payloads in memory and the rest of a long queue on disk, read back in order", async () => {
    const outbox = await open({ pendingInMemoryPerHook: 4, bodyCacheBytes: 0 });
    const payloads = Array.from({ length: 40 }, (_, i) => outgoing('slow', { created_at: T0 + i }));
    for (const p of payloads) await outbox.enqueue([p]);
    expect(outbox.inMemory()).to.deep.equal({
      entries: 4,
      coldPayloads: 36,
      settledPayloads: 0,
      sentBlocks: 0,
      cachedBodyBytes: 0,
    });
    expect(await outbox.get('slow', payloads[39].id)).to.include({ state: 'pending', id: payloads[39].id });
    expect((await outbox.list('slow', { offset: 0, limit: 3 })).results.map((r) => r.id)).to.deep.equal(
      [39, 38, 37].map((i) => payloads[i].id),
    );
    await outbox.close();
    const again = await open({ pendingInMemoryPerHook: 4, bodyCacheBytes: 0 });
    expect(again.inMemory()).to.include({ entries: 4, coldPayloads: 36 });
    expect(await drain(again)).to.deep.equal(payloads.map((p) => p.id));
  });

  it('keeps only pending payloads in memory: settled ones are listed, found and redelivered from disk, also after a reopen', async () => {
    const options = { pendingInMemoryPerHook: 4, bodyCacheBytes: 0 };
    const outbox = await open(options);
    const hooks = ['h0', 'h1', 'h2'];
    const payloads = Array.from({ length: 90 }, (_, i) => outgoing(hooks[i % 3], { created_at: T0 + i }));
    await outbox.enqueue(payloads);
    // Every seventh payload fails, the rest are delivered, one round of heads at a time.
    for (let round = 0, due = await outbox.due(T0 + 1e6, 10, none); due.length > 0; round++) {
      for (const { payload } of due) {
        const failed = payloads.indexOf(payloads.find((p) => p.id === payload.id)!) % 7 === 0;
        await outbox.recordAttempt(
          payload.id,
          attemptAt(T0 + 1000 + round, failed ? 500 : 200),
          failed ? { state: 'failed', reason: 'no' } : { state: 'delivered' },
        );
      }
      due = await outbox.due(T0 + 1e6, 10, none);
    }
    expect(outbox.inMemory()).to.include({ entries: 0, coldPayloads: 0, settledPayloads: 90 });
    const logs = () => Promise.all(hooks.map((h) => outbox.list(h, { offset: 0, limit: 100 })));
    const before = await logs();
    expect(before[0].results.map((r) => r.id)).to.deep.equal(
      payloads
        .filter((p) => p.hook_uuid === 'h0')
        .map((p) => p.id)
        .reverse(),
    );
    expect(
      (await outbox.list('h0', { state: 'failed', offset: 1, limit: 2 })).results.map((r) => r.id),
    ).to.deep.equal([payloads[63].id, payloads[42].id]);
    expect(await outbox.get('h1', payloads[4].id)).to.include({ state: 'delivered', id: payloads[4].id });
    expect((await outbox.get('h1', payloads[4].id))?.attempts).to.have.length(1);

    // A redelivered payload comes back into memory while pending, and leaves it once delivered again.
    expect(await outbox.redeliver('h1', payloads[4].id, T0 + 5000)).to.include({ state: 'pending' });
    expect(outbox.inMemory()).to.include({ entries: 1, settledPayloads: 89 });
    const [again] = await outbox.due(T0 + 5000, 10, none);
    expect(again.payload).to.deep.equal(asDue(payloads[4]));
    await outbox.recordAttempt(payloads[4].id, attemptAt(T0 + 5000, 200), { state: 'delivered' });
    expect(outbox.inMemory()).to.include({ entries: 0, settledPayloads: 90 });
    const settled = await logs();
    expect(settled[1].results.find((r) => r.id === payloads[4].id)?.attempts).to.have.length(2);
    await outbox.close();

    const reopened = await open(options);
    expect(reopened.inMemory()).to.include({ entries: 0, settledPayloads: 90 });
    expect(await Promise.all(hooks.map((h) => reopened.list(h, { offset: 0, limit: 100 })))).to.deep.equal(
      settled,
    );
    expect(await reopened.redeliver('h0', payloads[21].id, T0 + 6000)).to.include({ state: 'pending' });
    const [due] = await reopened.due(T0 + 6000, 10, none);
    expect(due).to.deep.equal({ payload: asDue(payloads[21]), attempts: 1 });
  });

  it('prunes settled payloads on disk and deletes the settlement segments it emptied at the next compaction', async () => {
    const options = { keepDeliveredBodiesMs: 1000, compactAtBytes: 1 << 30 };
    const outbox = await open(options);
    const old = Array.from({ length: 40 }, (_, i) => outgoing(`h${i % 4}`, { created_at: T0 + i }));
    await outbox.enqueue(old);
    await drain(outbox, T0 + 100);
    await outbox.close();
    // Settlement records of what is queued from now on go to a new segment.
    const second = await open(options);
    const recent = Array.from({ length: 8 }, (_, i) =>
      outgoing(`h${i % 4}`, { created_at: T0 + 10_000 + i }),
    );
    await second.enqueue(recent);
    await drain(second, T0 + 10_100);
    expect(await readdir(join(dir, 'settled'))).to.deep.equal(['000001.seg', '000002.seg']);
    expect(await second.prune(T0 + 5_000, T0 + 20_000)).to.equal(40);
    expect(second.inMemory()).to.include({ entries: 0, settledPayloads: 8 });
    expect((await second.list('h0', { offset: 0, limit: 100 })).total).to.equal(2);
    await second.close();
    expect(await readdir(join(dir, 'settled'))).to.deep.equal(['000002.seg']);
    const third = await open(options);
    expect(third.inMemory()).to.include({ entries: 0, settledPayloads: 8 });
    expect((await third.list('h3', { offset: 0, limit: 100 })).results.map((r) => r.id)).to.deep.equal([
      recent[7].id,
      recent[3].id,
    ]);
  });

  it('redelivers a payload behind a queue on disk, so it goes out after every payload queued before', async () => {
    const outbox = await open({ pendingInMemoryPerHook: 2, bodyCacheBytes: 0 });
    const [first, ...rest] = Array.from({ length: 6 }, (_, i) => outgoing('h1', { created_at: T0 + i }));
    await outbox.enqueue([first, ...rest]);
    await outbox.recordAttempt(first.id, attemptAt(T0, 200), { state: 'delivered' });
    expect(await outbox.redeliver('h1', first.id, T0 + 10)).to.include({ state: 'pending' });
    const page = await outbox.list('h1', { state: 'pending', offset: 0, limit: 10 });
    expect(page.total).to.equal(6);
    await outbox.close();
    const again = await open({ pendingInMemoryPerHook: 2, bodyCacheBytes: 0 });
    expect(await drain(again)).to.deep.equal([...rest.map((p) => p.id), first.id]);
    expect((await again.get('h1', first.id))?.attempts).to.have.length(2);
  });

  it('fails a long queue on disk in one step, keeping it there, and redelivers one of its payloads', async () => {
    const outbox = await open({ pendingInMemoryPerHook: 2, bodyCacheBytes: 0 });
    const payloads = Array.from({ length: 10 }, (_, i) => outgoing('dead', { created_at: T0 + i }));
    await outbox.enqueue(payloads);
    await outbox.failPending('dead', 'interrupted', payloads[0].id);
    // The one in flight stays in memory; the other one there failed and left it.
    expect(outbox.inMemory()).to.include({ entries: 1, coldPayloads: 8, settledPayloads: 1 });
    const failed = await outbox.list('dead', { state: 'failed', offset: 0, limit: 20 });
    expect(failed.total).to.equal(9);
    expect(failed.results.every((r) => r.failure_reason === 'interrupted')).to.equal(true);
    await outbox.recordAttempt(payloads[0].id, attemptAt(T0, 500), { state: 'failed', reason: 'gone' });
    expect(await outbox.redeliver('dead', payloads[7].id, T0 + 100)).to.include({ state: 'pending' });
    await outbox.close();
    const again = await open({ pendingInMemoryPerHook: 2, bodyCacheBytes: 0 });
    expect(await drain(again)).to.deep.equal([payloads[7].id]);
    expect((await again.list('dead', { state: 'failed', offset: 0, limit: 20 })).total).to.equal(9);
  });
});
