import { readdir, rm, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { BodyGoneError, openFsOutbox, type FsOutbox } from '../../../adapters/outbox/index.js';
import type { OutgoingPayload } from '../../../core/ports/delivery-queue.js';
import { T0, asQueued, attemptAt, sharingBlocks } from '../../contracts/delivery-queue.contract.js';
import { makeTempDir } from '../../support/temp-dir.js';

const none: ReadonlySet<string> = new Set();
// No body cache: every body is put back together from its record and its blocks' records on disk.
const FROM_DISK = { bodyCacheBytes: 0 };

/** Every payload due at `now`, by id. */
async function dueById(outbox: FsOutbox, now = T0 + 1e9): Promise<Map<string, OutgoingPayload>> {
  return new Map((await outbox.due(now, 100, none)).map((d) => [d.payload.id, asQueued(d.payload)]));
}

describe('FsOutbox with payloads that share blocks', () => {
  let dir: string;
  const opened: FsOutbox[] = [];
  const open = async (options?: Parameters<typeof openFsOutbox>[1]) => {
    const outbox = await openFsOutbox(dir, { ...FROM_DISK, ...options });
    opened.push(outbox);
    return outbox;
  };
  const journal = () => join(dir, 'journal-000000000001.log');
  const segment = (n: number) => join(dir, 'payloads', `${String(n).padStart(6, '0')}.seg`);
  const size = async (path: string) => (await stat(path)).size;
  beforeEach(async () => {
    dir = await makeTempDir('stackhooks-outbox-blocks-');
  });
  afterEach(async () => {
    for (const outbox of opened.splice(0)) await outbox.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('forgets payloads whose records the journal never named after a crash between their block text and the journal', async () => {
    const [kept] = sharingBlocks(['h1'], 1);
    const lost = sharingBlocks(['h2', 'h3'], 1);
    const first = await open();
    await first.enqueue([kept]);
    const journalBefore = await size(journal());
    await first.enqueue(lost);
    await first.close();
    // The crash: the segment write and its fsync happened, the journal append did not.
    await truncate(journal(), journalBefore);
    const again = await open();
    expect([...(await dueById(again)).values()]).to.deep.equal([kept]);
    expect(await again.get('h2', lost[0].id)).to.equal(undefined);
    await again.enqueue(lost);
    const due = await dueById(again);
    for (const p of [kept, ...lost]) expect(due.get(p.id)).to.deep.equal(p);
  });

  it('opens after a crash that wrote a block text but none of the records after it', async () => {
    const [kept] = sharingBlocks(['h1'], 1);
    const lost = sharingBlocks(['h2', 'h3'], 1);
    const first = await open();
    await first.enqueue([kept]);
    const [journalBefore, segmentBefore] = [await size(journal()), await size(segment(1))];
    await first.enqueue(lost);
    await first.close();
    // Cut the segment right after the new block's text (its frame: 8 bytes, then the text).
    const blockText = JSON.stringify(lost[0].body.event.apply[0]);
    await truncate(segment(1), segmentBefore + 8 + Buffer.byteLength(blockText));
    await truncate(journal(), journalBefore);
    const again = await open();
    expect([...(await dueById(again)).values()]).to.deep.equal([kept]);
    await again.enqueue(lost);
    await again.close();
    // The block is written anew beside its records, in the segment of this open.
    const third = await open();
    const due = await dueById(third);
    for (const p of [kept, ...lost]) expect(due.get(p.id)).to.deep.equal(p);
    expect(await readdir(join(dir, 'payloads'))).to.include.members(['000001.seg', '000002.seg']);
  });

  it('keeps a segment holding a block text while any payload naming it is kept, and deletes it after', async () => {
    const options = { keepDeliveredBodiesMs: 1000, compactAtBytes: 1 };
    const [a, b] = sharingBlocks(['h1', 'h2'], 1);
    const first = await open(options);
    await first.enqueue([a, b]);
    await first.close();
    const outbox = await open(options);
    await outbox.recordAttempt(a.id, attemptAt(T0 + 10, 200), { state: 'delivered' });
    // `a`'s body is let go; `b` still names the block text in segment 1.
    await outbox.prune(T0 - 1, T0 + 10_000);
    await outbox.close();
    expect(await readdir(join(dir, 'payloads'))).to.include('000001.seg');
    const again = await open(options);
    expect((await dueById(again)).get(b.id)).to.deep.equal(b);
    expect(await again.redeliver('h1', a.id, T0 + 20_000).catch((e: unknown) => e)).to.be.instanceOf(
      BodyGoneError,
    );
    await again.recordAttempt(b.id, attemptAt(T0 + 20_000, 200), { state: 'delivered' });
    await again.prune(T0 - 1, T0 + 40_000);
    await again.close();
    expect(await readdir(join(dir, 'payloads'))).to.not.include('000001.seg');
    const last = await open(options);
    expect(await last.get('h2', b.id)).to.include({ state: 'delivered' });
  });

  it('redelivers a delivered payload whose body is within retention, whole, from a queue on disk', async () => {
    const payloads = sharingBlocks(['h1', 'h2'], 3);
    const more = sharingBlocks(['h1', 'h1', 'h1'], 1);
    const first = await open({ pendingInMemoryPerHook: 1 });
    await first.enqueue([...payloads, ...more]);
    for (const p of payloads) await first.recordAttempt(p.id, attemptAt(T0 + 1, 200), { state: 'delivered' });
    await first.close();
    const again = await open({ pendingInMemoryPerHook: 1 });
    expect(await again.redeliver('h1', payloads[0].id, T0 + 2)).to.include({ state: 'pending' });
    const sent: OutgoingPayload[] = [];
    for (
      let due = await again.due(T0 + 1e9, 10, none);
      due.length > 0;
      due = await again.due(T0 + 1e9, 10, none)
    ) {
      for (const { payload } of due) {
        sent.push(asQueued(payload));
        await again.recordAttempt(payload.id, attemptAt(T0 + 3, 200), { state: 'delivered' });
      }
    }
    expect(sent).to.deep.equal([...more, payloads[0]]);
  });
});
