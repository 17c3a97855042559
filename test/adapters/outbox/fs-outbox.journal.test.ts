import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { expect } from 'chai';
import { placedOf, type EnqueuedBatch } from '../../../adapters/outbox/enqueued-batch.js';
import { openFsOutbox } from '../../../adapters/outbox/index.js';
import { T0, asDue, attemptAt, drain, outgoing } from '../../contracts/delivery-queue.contract.js';
import { journals, outboxFolderPerTest } from '../../support/outbox-folder.js';

const none: ReadonlySet<string> = new Set();

describe('FsOutbox journal', () => {
  let dir: string;
  const open = outboxFolderPerTest((fresh) => (dir = fresh));

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

  it('writes bodies to payload segments, never to the journal', async () => {
    const outbox = await open();
    const p = outgoing('h1', { pad: 50 });
    await outbox.enqueue([p]);
    await outbox.close();
    const [journal] = await journals(dir);
    expect(await readFile(join(dir, journal), 'utf8')).to.not.include(p.body.chainhook.name);
    expect(await readFile(join(dir, 'payloads', '000001.seg'), 'utf8')).to.include(p.body.chainhook.name);
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
    expect(await outbox.due(T0, 10, none)).to.deep.equal([{ payload: asDue(b), attempts: 0 }]);
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
      { payload: asDue(a), attempts: 0 },
      { payload: asDue(b), attempts: 0 },
    ]);
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
});

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

/** A journal record: length, CRC-32, payload. */
function frame(payload: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32LE(payload.length, 0);
  header.writeUInt32LE(crc32(payload), 4);
  return Buffer.concat([header, payload]);
}
