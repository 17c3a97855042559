import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { BodyGoneError, type FsOutbox } from '../../../adapters/outbox/index.js';
import { T0, asDue, asQueued, attemptAt, drain, outgoing } from '../../contracts/delivery-queue.contract.js';
import { journals, outboxFolderPerTest } from '../../support/outbox-folder.js';

const none: ReadonlySet<string> = new Set();

describe('FsOutbox compaction', () => {
  let dir: string;
  const open = outboxFolderPerTest((fresh) => (dir = fresh));

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
    for (const { payload } of due)
      expect(asQueued(payload)).to.deep.equal(payloads.find((p) => p.id === payload.id));
    const sent = await drain(again);
    hooks.forEach((h, k) => {
      const pending = before[k].results.filter((r) => r.state === 'pending').map((r) => r.id);
      expect(sent.filter((id) => id.startsWith(`msg_${h}_`))).to.deep.equal(pending.reverse());
    });
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
    expect(due.find((d) => d.payload.id === failed.id)?.payload).to.deep.equal(asDue(failed));
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
});

/** Deliver the head of each hook due at `now`, one round. */
async function deliverHeads(outbox: FsOutbox, now: number): Promise<void> {
  for (const { payload } of await outbox.due(now, 10, none))
    await outbox.recordAttempt(payload.id, attemptAt(now, 200), { state: 'delivered' });
}
