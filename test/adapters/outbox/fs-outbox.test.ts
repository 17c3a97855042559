import { spawn } from 'node:child_process';
import { appendFile, copyFile, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { expect } from 'chai';
import { placedOf, type EnqueuedBatch } from '../../../adapters/outbox/enqueued-batch.js';
import { BodyGoneError, openFsOutbox, type FsOutbox } from '../../../adapters/outbox/index.js';
import {
  T0,
  attemptAt,
  deliveryQueueContract,
  drain,
  outgoing,
} from '../../contracts/delivery-queue.contract.js';
import { makeTempDir } from '../../support/temp-dir.js';

const journals = async (dir: string) => (await readdir(dir)).filter((n) => n.startsWith('journal-')).sort();
const none: ReadonlySet<string> = new Set();

deliveryQueueContract('FsOutbox', async () => {
  const dir = await makeTempDir('stackhooks-outbox-');
  let current = await openFsOutbox(dir);
  return {
    queue: current,
    async reopen() {
      await current.close();
      current = await openFsOutbox(dir);
      return current;
    },
    async cleanup() {
      await current.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

// The same, with compaction so frequent that most reopens replay a snapshot rather than the changes.
deliveryQueueContract('FsOutbox, compacting constantly', async () => {
  const dir = await makeTempDir('stackhooks-outbox-');
  let current = await openFsOutbox(dir, { compactAtBytes: 1 });
  return {
    queue: current,
    async reopen() {
      await current.close();
      current = await openFsOutbox(dir, { compactAtBytes: 1 });
      return current;
    },
    async cleanup() {
      await current.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

// Two pending payloads per hook in memory and no body cache: queues spill to disk at once, and
// every body is read back from its record.
deliveryQueueContract('FsOutbox, two pending in memory per hook, bodies read from disk', async () => {
  const dir = await makeTempDir('stackhooks-outbox-');
  const options = { pendingInMemoryPerHook: 2, bodyCacheBytes: 0, compactAtBytes: 2_000 };
  let current = await openFsOutbox(dir, options);
  return {
    queue: current,
    async reopen() {
      await current.close();
      current = await openFsOutbox(dir, options);
      return current;
    },
    async cleanup() {
      await current.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

describe('FsOutbox', () => {
  let dir: string;
  const opened: FsOutbox[] = [];
  const open = async (options?: Parameters<typeof openFsOutbox>[1]) => {
    const outbox = await openFsOutbox(dir, options);
    opened.push(outbox);
    return outbox;
  };
  beforeEach(async () => {
    dir = await makeTempDir('stackhooks-outbox-');
  });
  afterEach(async () => {
    for (const outbox of opened.splice(0)) await outbox.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('cuts off a torn tail on open and appends after the last intact record', async () => {
    const [a, b, c] = [outgoing('h1'), outgoing('h1'), outgoing('h1')];
    const first = await open();
    await first.enqueue([a, b]);
    await first.close();
    const [journal] = await journals(dir);
    const intact = (await stat(join(dir, journal))).size;
    await appendFile(join(dir, journal), Buffer.from([200, 0, 0, 0, 1, 2, 3, 4, 123, 34]));
    const second = await open();
    expect((await stat(join(dir, journal))).size).to.equal(intact);
    await second.enqueue([c]);
    await second.close();
    // A zero-filled tail (space allocated, data never written) is torn too, not a run of empty records.
    await appendFile(join(dir, journal), Buffer.alloc(64));
    const third = await open();
    expect(await drain(third)).to.deep.equal([a.id, b.id, c.id]);
  });

  it('resolves many concurrent changes once written, and keeps every one of them', async () => {
    const outbox = await open();
    const payloads = Array.from({ length: 300 }, (_, i) => outgoing(`h${i % 7}`, { created_at: T0 + i }));
    await Promise.all(payloads.map((p) => outbox.enqueue([p])));
    await Promise.all(
      payloads.slice(0, 7).map((p) => outbox.recordAttempt(p.id, attemptAt(T0, 200), { state: 'delivered' })),
    );
    await outbox.close();
    const again = await open();
    const sent = await drain(again);
    expect(sent).to.have.length(293);
    for (let h = 0; h < 7; h++) {
      const expected = payloads.filter((p, i) => p.hook_uuid === `h${h}` && i >= 7).map((p) => p.id);
      expect(sent.filter((id) => id.startsWith(`msg_h${h}_`))).to.deep.equal(expected);
    }
  });

  it('compacts past compactAtBytes into one new generation that keeps pending bodies and the log', async () => {
    const hooks = ['h0', 'h1', 'h2'];
    const outbox = await open({ compactAtBytes: 8_000 });
    const payloads = Array.from({ length: 90 }, (_, i) =>
      outgoing(hooks[i % 3], { pad: 1000, created_at: T0 + i }),
    );
    for (const [i, p] of payloads.entries()) {
      await outbox.enqueue([p]);
      if (i % 6 === 5) await deliverHeads(outbox, T0 + i);
    }
    const files = await journals(dir);
    expect(files).to.have.length(1);
    expect(files[0]).to.not.equal('journal-000000000001.log');
    const before = await Promise.all(hooks.map((h) => outbox.list(h, { offset: 0, limit: 100 })));
    await outbox.close();

    const again = await open({ compactAtBytes: 8_000 });
    expect(await Promise.all(hooks.map((h) => again.list(h, { offset: 0, limit: 100 })))).to.deep.equal(
      before,
    );
    const due = await again.due(T0 + 1e9, 10, none);
    expect(due).to.have.length(3);
    for (const { payload } of due) expect(payload).to.deep.equal(payloads.find((p) => p.id === payload.id));
    const sent = await drain(again);
    hooks.forEach((h, k) => {
      const pending = before[k].results.filter((r) => r.state === 'pending').map((r) => r.id);
      expect(sent.filter((id) => id.startsWith(`msg_${h}_`))).to.deep.equal(pending.reverse());
    });
  });

  it('writes bodies to payload segments, never to the journal', async () => {
    const outbox = await open();
    const p = outgoing('h1', { pad: 50 });
    await outbox.enqueue([p]);
    await outbox.close();
    const [journal] = await journals(dir);
    expect(await readFile(join(dir, journal), 'utf8')).to.not.include(p.body.chainhook.name);
    expect(await readFile(join(dir, 'payloads', '000001.seg'), 'utf8')).to.include(p.body.chainhook.name);
  });

  it('compacts once a prune frees segments that outweigh the journal, dropping forgotten records and deleting the segments', async () => {
    const first = await open({ keepDeliveredBodiesMs: 1000 });
    const [done, failed] = [outgoing('h1', { pad: 20_000 }), outgoing('h2', { pad: 50 })];
    const old = outgoing('h3', { created_at: T0 - 100 });
    await first.enqueue([done, old]);
    await first.recordAttempt(done.id, attemptAt(T0 + 10, 200), { state: 'delivered' });
    await first.recordAttempt(old.id, attemptAt(T0 + 10, 200), { state: 'delivered' });
    await first.close();
    // A new segment per open: the second holds only what is queued from now on.
    const outbox = await open({ keepDeliveredBodiesMs: 1000 });
    await outbox.enqueue([failed, outgoing('h4', { created_at: T0 + 5000 })]);
    await outbox.recordAttempt(failed.id, attemptAt(T0 + 10), { state: 'failed', reason: 'no' });
    expect(await readdir(join(dir, 'payloads'))).to.deep.equal(['000001.seg', '000002.seg']);
    expect(await outbox.prune(T0 - 1)).to.equal(1);
    // The compaction runs behind the commits; closing waits for it.
    await outbox.close();
    const files = await journals(dir);
    expect(files).to.deep.equal(['journal-000000000002.log']);
    expect(await readFile(join(dir, files[0]), 'utf8')).to.not.include(old.id);
    // The first segment held only delivered bodies past their grace period; the second a failed one.
    expect(await readdir(join(dir, 'payloads'))).to.deep.equal(['000002.seg']);

    const again = await open({ keepDeliveredBodiesMs: 1000 });
    expect(await again.get('h1', done.id)).to.include({ state: 'delivered' });
    expect(await again.redeliver('h1', done.id, T0 + 6000).catch((e: unknown) => e)).to.be.instanceOf(
      BodyGoneError,
    );
    expect(await again.redeliver('h2', failed.id, T0 + 6000)).to.include({ state: 'pending' });
    const due = await again.due(T0 + 6000, 10, none);
    expect(due.find((d) => d.payload.id === failed.id)?.payload).to.deep.equal(failed);
  });

  it('keeps every change committed while a compaction writes its snapshot, replayed after it', async () => {
    const hooks = ['h0', 'h1', 'h2', 'h3'];
    // Tiny slices: the snapshot takes many writes, and the changes below land between them.
    const options = { compactAtBytes: 16_000, snapshotSliceBytes: 64, pendingInMemoryPerHook: 8 };
    const outbox = await open(options);
    const payloads = Array.from({ length: 240 }, (_, i) => outgoing(hooks[i % 4], { created_at: T0 + i }));
    for (let i = 0; i < payloads.length; i += 12) {
      await Promise.all([
        outbox.enqueue(payloads.slice(i, i + 12)),
        deliverHeads(outbox, T0 + i),
        outbox.prune(T0 + i - 60, T0 + i),
      ]);
    }
    const before = await Promise.all(hooks.map((h) => outbox.list(h, { offset: 0, limit: 300 })));
    await outbox.close();
    expect((await journals(dir))[0]).to.not.equal('journal-000000000001.log');
    const again = await open(options);
    expect(await Promise.all(hooks.map((h) => again.list(h, { offset: 0, limit: 300 })))).to.deep.equal(
      before,
    );
  });

  it('does not rewrite a journal with nothing to prune at each prune', async () => {
    const outbox = await open({ keepDeliveredBodiesMs: 1000 });
    const payloads = Array.from({ length: 20 }, (_, i) => outgoing(`h${i % 4}`, { created_at: T0 + i }));
    await outbox.enqueue(payloads);
    await deliverHeads(outbox, T0 + 100);
    const [journal] = await journals(dir);
    const written = await readFile(join(dir, journal));
    for (let i = 0; i < 5; i++) expect(await outbox.prune(T0 - 1)).to.equal(0);
    expect(await journals(dir)).to.deep.equal([journal]);
    // Appended to, never rewritten: what was there is still there, byte for byte.
    const after = await readFile(join(dir, journal));
    expect(after.length).to.be.above(written.length);
    expect(after.subarray(0, written.length).equals(written)).to.equal(true);
  });

  it('rewrites a growing journal with nothing to prune only each time it has doubled, appending in between', async () => {
    const outbox = await open({ compactAtBytes: 4_000 });
    let generation = (await journals(dir))[0];
    let appendedTo = await readFile(join(dir, generation));
    const sizes: number[] = [];
    for (let i = 0; i < 400; i++) {
      await outbox.enqueue([outgoing(`h${i % 8}`, { created_at: T0 + i })]);
      const [now] = await journals(dir);
      const bytes = await readFile(join(dir, now));
      if (now === generation) {
        // Between compactions the journal is appended to: what was there is still there.
        expect(bytes.subarray(0, appendedTo.length).equals(appendedTo)).to.equal(true);
      } else {
        sizes.push(appendedTo.length);
        generation = now;
      }
      appendedTo = bytes;
    }
    // Each compaction came once the journal had doubled since the one before: a handful, not 400.
    expect(sizes.length).to.be.within(2, 8);
    for (let k = 1; k < sizes.length; k++) expect(sizes[k]).to.be.at.least(sizes[k - 1] * 1.5);
  });

  it("keeps a hook's first pending payloads in memory and the rest of a long queue on disk, read back in order", async () => {
    const outbox = await open({ pendingInMemoryPerHook: 4, bodyCacheBytes: 0 });
    const payloads = Array.from({ length: 40 }, (_, i) => outgoing('slow', { created_at: T0 + i }));
    for (const p of payloads) await outbox.enqueue([p]);
    expect(outbox.inMemory()).to.deep.equal({
      entries: 4,
      coldPayloads: 36,
      settledPayloads: 0,
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
    expect(again.payload).to.deep.equal(payloads[4]);
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
    expect(due).to.deep.equal({ payload: payloads[21], attempts: 1 });
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

  it('moves the bodies of a journal written before payload segments into segments, and compacts it', async () => {
    const [a, b] = [outgoing('h1', { pad: 40 }), outgoing('h1', { pad: 40 })];
    const legacy = [
      { t: 'enqueued', payload: a },
      { t: 'enqueued', payload: b },
      { t: 'attempt', id: a.id, attempt: attemptAt(T0, 200), outcome: { state: 'delivered' } },
    ];
    await writeFile(
      join(dir, 'journal-000000000001.log'),
      Buffer.concat(legacy.map((e) => frame(Buffer.from(JSON.stringify(e))))),
    );
    const outbox = await open();
    expect(await journals(dir)).to.deep.equal(['journal-000000000002.log']);
    expect(await readFile(join(dir, 'journal-000000000002.log'), 'utf8')).to.not.include(
      b.body.chainhook.name,
    );
    expect(await outbox.get('h1', a.id)).to.include({ state: 'delivered' });
    expect(await outbox.due(T0, 10, none)).to.deep.equal([{ payload: b, attempts: 0 }]);
    // Its settled entry, kept in memory by the release that wrote it, leaves memory at the open.
    expect(outbox.inMemory()).to.include({ entries: 1, settledPayloads: 1 });
    await outbox.close();
    const again = await open();
    expect(again.inMemory()).to.include({ entries: 1, settledPayloads: 1 });
    expect(await again.get('h1', a.id)).to.include({ state: 'delivered' });
  });

  it('replays a journal of one record per queued payload, as written before batches', async () => {
    const [a, b] = [outgoing('h1', { created_at: T0 }), outgoing('h2', { created_at: T0 + 1 })];
    const first = await open();
    await first.enqueue([a, b]);
    await first.close();
    const [journal] = await journals(dir);
    const records = readRecords(await readFile(join(dir, journal))).flatMap((record) =>
      record.t === 'enqueued_batch'
        ? placedOf(record as unknown as EnqueuedBatch).map(({ meta, loc }) => ({
            t: 'enqueued',
            payload: meta,
            loc: [loc.seg, loc.off, loc.len],
          }))
        : [record],
    );
    expect(records.filter((r) => r.t === 'enqueued')).to.have.length(2);
    await writeFile(
      join(dir, journal),
      Buffer.concat(records.map((r) => frame(Buffer.from(JSON.stringify(r))))),
    );
    const again = await open();
    expect(await again.due(T0 + 10, 10, none)).to.deep.equal([
      { payload: a, attempts: 0 },
      { payload: b, attempts: 0 },
    ]);
  });

  it('replays the newest generation and removes what a crash during compaction left behind', async () => {
    const outbox = await open();
    const p = outgoing('h1');
    await outbox.enqueue([p]);
    await outbox.close();
    await copyFile(join(dir, 'journal-000000000001.log'), join(dir, 'journal-000000000002.log'));
    await writeFile(join(dir, 'journal-000000000003.log.tmp'), 'half a snapshot');
    const again = await open();
    expect(await journals(dir)).to.deep.equal(['journal-000000000002.log']);
    expect(await drain(again)).to.deep.equal([p.id]);
  });

  it('refuses to open a journal holding an entry it does not know rather than replay part of it', async () => {
    const payload = Buffer.from(JSON.stringify({ t: 'from_the_future' }));
    await writeFile(join(dir, 'journal-000000000001.log'), frame(payload));
    const error = await openFsOutbox(dir).catch((e: unknown) => e);
    expect(String(error)).to.include('from_the_future');
  });

  it('refuses changes once closed', async () => {
    const outbox = await openFsOutbox(dir);
    await outbox.close();
    expect(String(await outbox.enqueue([outgoing('h1')]).catch((e: unknown) => e))).to.include('closed');
  });

  for (const window of [32, 2]) {
    it(`keeps every acknowledged payload, in order per hook, when its writer (${window} pending in memory per hook) is killed with SIGKILL`, async function () {
      this.timeout(60_000);
      const lines = await runAndKill(dir, 600, window);
      const acked = lines.filter((l) => l.startsWith('E ')).map((l) => l.slice(2));
      const delivered = lines.filter((l) => l.startsWith('D ')).map((l) => l.slice(2));
      const retried = lines.filter((l) => l.startsWith('R ')).map((l) => l.slice(2));
      expect(acked.length).to.be.at.least(600);
      expect(delivered.length).to.be.greaterThan(0);
      expect(retried.length).to.be.greaterThan(0);
      const outbox = await open();
      const hookOf = (id: string) => `hook-${Number(id.slice(1)) % 50}`;
      for (const id of acked) expect(await outbox.get(hookOf(id), id), id).to.not.equal(undefined);
      for (const id of delivered) expect(await outbox.get(hookOf(id), id)).to.include({ state: 'delivered' });
      for (const id of retried) expect((await outbox.get(hookOf(id), id))?.attempts.length).to.be.at.least(1);
      // Every body after the restart is put back together from the records on disk.
      for (const { payload } of await outbox.due(1e15, 50, none))
        expect(payload.body.event.apply[0].block_identifier.hash).to.equal(
          `0x${Math.floor(Number(payload.id.slice(1)) / 5)}`,
        );
      const sent = await drain(outbox);
      for (let h = 0; h < 50; h++) {
        const numbers = sent.filter((id) => hookOf(id) === `hook-${h}`).map((id) => Number(id.slice(1)));
        expect(numbers, `hook-${h}`).to.deep.equal([...numbers].sort((a, b) => a - b));
      }
      expect(new Set(sent).size).to.equal(sent.length);
    });
  }
});

/** A journal record: length, CRC-32, payload. */
/** The journal records of a file, parsed. */
function readRecords(bytes: Buffer): { t: string }[] {
  const records: { t: string }[] = [];
  for (let at = 0; at < bytes.length;) {
    const length = bytes.readUInt32LE(at);
    records.push(JSON.parse(bytes.subarray(at + 8, at + 8 + length).toString('utf8')) as { t: string });
    at += 8 + length;
  }
  return records;
}

function frame(payload: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32LE(payload.length, 0);
  header.writeUInt32LE(crc32(payload), 4);
  return Buffer.concat([header, payload]);
}

/** Deliver the head of each hook due at `now`, one round. */
async function deliverHeads(outbox: FsOutbox, now: number): Promise<void> {
  for (const { payload } of await outbox.due(now, 10, none))
    await outbox.recordAttempt(payload.id, attemptAt(now, 200), { state: 'delivered' });
}

// The writer: five hooks at a time enqueue concurrently (so fsyncs are shared), their bodies sharing
// a block as one chain event's payloads do; every few rounds it retries or delivers some heads.
// Each line is printed only once its call resolved.
const WRITER = `
  import { openFsOutbox } from './adapters/outbox/index.ts';
  const outbox = await openFsOutbox(process.argv[1], { pendingInMemoryPerHook: Number(process.argv[2]) });
  const say = (line) => process.stdout.write(line + '\\n');
  const payload = (i, block) => ({
    id: 'p' + i, hook_uuid: 'hook-' + (i % 50), owner: 'o', url: 'https://example.com', kind: 'live',
    apply: [{ index: i, hash: '0x' + i, tx_indexes: [0] }], rollback: [], created_at: 1000 + i,
    body: { chainhook: { uuid: 'hook-' + (i % 50), name: 'x'.repeat((i * 37) % 4000) },
            event: { chain: 'stacks', network: 'mainnet', apply: [block], rollback: [] } },
  });
  for (let round = 0; ; round++) {
    const block = { block_identifier: { index: round, hash: '0x' + round }, timestamp: round,
                    transactions: [{ note: 'y'.repeat((round * 53) % 3000) }] };
    await Promise.all([0, 1, 2, 3, 4].map((k) => {
      const i = round * 5 + k;
      return outbox.enqueue([payload(i, block)]).then(() => say('E p' + i));
    }));
    if (round % 3 !== 2) continue;
    const due = await outbox.due(1e15, 4, new Set());
    await Promise.all(due.map(({ payload, attempts }) => attempts === 0
      ? outbox.recordAttempt(payload.id, { at: 1, status_code: 500, error: 'HTTP 500', latency_ms: 1 },
          { state: 'pending', next_attempt_at: 2000 + round }).then(() => say('R ' + payload.id))
      : outbox.recordAttempt(payload.id, { at: 2, status_code: 200, error: null, latency_ms: 1 },
          { state: 'delivered' }).then(() => say('D ' + payload.id))));
  }`;

/** Run the writer until it has acknowledged `atLeast` payloads, SIGKILL it, and return its lines. */
async function runAndKill(dir: string, atLeast: number, window: number): Promise<string[]> {
  const args = ['--import', 'tsx', '--input-type=module', '-e', WRITER, dir, String(window)];
  const child = spawn(process.execPath, args, {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  let partial = '';
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`writer exited by itself (${code})`)));
    child.stdout.on('data', (chunk: Buffer) => {
      const parts = (partial + chunk.toString()).split('\n');
      partial = parts.pop()!;
      lines.push(...parts);
      if (lines.filter((l) => l.startsWith('E ')).length >= atLeast) {
        child.removeAllListeners('exit');
        child.kill('SIGKILL');
        resolve();
      }
    });
  });
  await new Promise((r) => child.once('exit', r));
  return lines;
}
