import { expect } from 'chai';
import { openFsOutbox, type FsOutbox } from '../../../adapters/outbox/index.js';
import { StackhooksError } from '../../../core/hooks/errors.js';
import type { OutgoingPayload } from '../../../core/ports/delivery-queue.js';
import { T0, asQueued, attemptAt, outgoing } from '../../contracts/delivery-queue.contract.js';
import { diskFaults, withFaultyDisk } from '../../support/faulty-disk.js';

const FAULTS = diskFaults({ rooms: [0, 30, 200, 450, 900, 1600], writes: [1, 2, 3, 4], syncs: [1, 2, 3] });

// Two pending payloads per hook in memory and no body cache: after a reopen every body is read
// back from its record on disk, so a torn or missing one shows.
const OPTIONS = { pendingInMemoryPerHook: 2, bodyCacheBytes: 0 };
const none: ReadonlySet<string> = new Set();
const payloads = (count: number) => Array.from({ length: count }, () => outgoing('h1', { pad: 40 }));
const sequence = (payload: OutgoingPayload) => Number(payload.id.split('_')[2]);

/**
 * Every acknowledged payload is found whole. A refused one may be found too (its change was in
 * memory and went out with the next write that succeeded), but whole and in its place.
 */
function expectWholeAndInOrder(found: OutgoingPayload[], acked: OutgoingPayload[]): void {
  for (const payload of acked)
    expect(
      found.find((p) => p.id === payload.id),
      payload.id,
    ).to.deep.equal(payload);
  const order = found.map(sequence);
  expect(order).to.deep.equal([...order].sort((a, b) => a - b));
}

describe('FsOutbox under disk faults', () => {
  const { disk, dir } = withFaultyDisk('stackhooks-outbox-faults-');

  /** Enqueue each payload on its own; the ones acknowledged. A refusal must be a 503-kind one. */
  async function enqueueEach(outbox: FsOutbox, payloads: OutgoingPayload[]): Promise<OutgoingPayload[]> {
    const acked: OutgoingPayload[] = [];
    for (const payload of payloads) {
      try {
        await outbox.enqueue([payload]);
        acked.push(payload);
      } catch (err) {
        expect(err).to.be.instanceOf(StackhooksError).with.property('code', 'unavailable');
      }
    }
    return acked;
  }

  /** Every pending payload after a reopen with the real file functions, whole, in queue order. */
  async function pendingAfterReopen(): Promise<OutgoingPayload[]> {
    disk.uninstall();
    const outbox = await openFsOutbox(dir(), OPTIONS);
    const found: OutgoingPayload[] = [];
    for (let due = await outbox.due(T0 + 1e12, 100, none); due.length > 0;) {
      for (const { payload } of due) {
        found.push(asQueued(payload));
        await outbox.recordAttempt(payload.id, attemptAt(T0, 200), { state: 'delivered' });
      }
      due = await outbox.due(T0 + 1e12, 100, none);
    }
    await outbox.close();
    await disk.install();
    return found;
  }

  for (const fault of FAULTS) {
    it(`keeps every acknowledged payload whole, and those after, after ${fault.name}`, async () => {
      const outbox = await openFsOutbox(dir(), OPTIONS);
      const before = await enqueueEach(outbox, payloads(3));
      fault.inject(disk);
      const during = await enqueueEach(outbox, payloads(4));
      disk.heal();
      const after = await enqueueEach(outbox, payloads(2));
      expect(after).to.have.length(2);
      await outbox.close();
      const found = await pendingAfterReopen();
      expectWholeAndInOrder(found, [...before, ...during, ...after]);
    });

    it(`keeps every acknowledged payload when it stops while the disk still fails, after ${fault.name}`, async () => {
      const outbox = await openFsOutbox(dir(), OPTIONS);
      const before = await enqueueEach(outbox, payloads(3));
      fault.inject(disk);
      const during = await enqueueEach(outbox, payloads(3));
      await outbox.close().catch(() => undefined);
      disk.heal();
      expectWholeAndInOrder(await pendingAfterReopen(), [...before, ...during]);
    });
  }

  // Batches past the first framing buffer (64 KiB), whose write starts before the flush: a fault
  // there may cost the batch its acknowledgement, never a record of an acknowledged one.
  for (const fault of diskFaults({ rooms: [20_000, 70_000, 150_000], writes: [1, 2], syncs: [1] })) {
    it(`keeps every acknowledged batch whole when buffers are written before their flush, after ${fault.name}`, async () => {
      const outbox = await openFsOutbox(dir(), OPTIONS);
      const acked: OutgoingPayload[] = [];
      const enqueueBatch = async () => {
        const batch = Array.from({ length: 30 }, () => outgoing('h3', { pad: 6000 }));
        try {
          await outbox.enqueue(batch);
          acked.push(...batch);
        } catch (err) {
          expect(err).to.be.instanceOf(StackhooksError).with.property('code', 'unavailable');
        }
      };
      await enqueueBatch();
      fault.inject(disk);
      await enqueueBatch();
      await enqueueBatch();
      disk.heal();
      await enqueueBatch();
      expect(acked.length).to.be.at.least(60);
      await outbox.close();
      expectWholeAndInOrder(await pendingAfterReopen(), acked);
    });
  }

  it('goes on recording delivery attempts once the disk has room again, without a reopen', async () => {
    const outbox = await openFsOutbox(dir(), OPTIONS);
    const [first, second] = [outgoing('h2'), outgoing('h2')];
    await outbox.enqueue([first, second]);
    disk.room = 0;
    const refused = await outbox
      .recordAttempt(first.id, attemptAt(T0, 200), { state: 'delivered' })
      .catch((err: unknown) => err);
    expect(refused).to.be.instanceOf(StackhooksError).with.property('code', 'unavailable');
    disk.heal();
    await outbox.recordAttempt(second.id, attemptAt(T0, 200), { state: 'delivered' });
    await outbox.close();
    expect(await pendingAfterReopen()).to.deep.equal([]);
  });
});
