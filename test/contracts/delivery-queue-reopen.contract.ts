import { expect } from 'chai';
import type { DeliveryQueue } from '../../core/ports/delivery-queue.js';
import type { DeliveryQueueSubject } from './delivery-queue.contract.js';
import { asDue, attemptAt, drain, none, outgoing, sharingBlocks, T0 } from './delivery-queue-fixtures.js';

/** What every persistent DeliveryQueue keeps across a reopen. */
export function deliveryQueueReopenCases(
  current: () => DeliveryQueueSubject,
  options: { persistent?: boolean },
): void {
  describe('across a reopen', () => {
    let subject: DeliveryQueueSubject;
    let queue: DeliveryQueue;
    beforeEach(() => {
      subject = current();
      queue = subject.queue;
    });

    // A store kept only in memory has nothing to reopen: the test is not registered for it.
    (options.persistent ? it : () => undefined)(
      'keeps payloads, pending order, attempts, states and sent blocks across a reopen',
      async function () {
        if (!subject.reopen) throw new Error('a persistent store under test must give reopen');
        const b1 = { index: 1, hash: '0xb1', tx_indexes: [1] };
        const [a1, a2, a3] = [outgoing('h1', { apply: [b1] }), outgoing('h1'), outgoing('h1')];
        const [c1, c2] = [outgoing('h2'), outgoing('h2')];
        const gone = outgoing('h3', { apply: [{ index: 2, hash: '0xb2', tx_indexes: [0] }] });
        await queue.enqueue([a1, c1, a2, gone, c2, a3, outgoing('h4'), outgoing('h4')]);
        await queue.recordAttempt(a1.id, attemptAt(T0, 500), { state: 'failed', reason: 'no' });
        await queue.recordAttempt(a2.id, attemptAt(T0 + 1), { state: 'pending', next_attempt_at: T0 + 60 });
        await queue.redeliver('h1', a1.id, T0 + 5);
        await queue.recordAttempt(c1.id, attemptAt(T0 + 2, 200), { state: 'delivered' });
        await queue.failPending('h4', 'interrupted');
        await queue.dropHook('h3');
        const before = await Promise.all(
          ['h1', 'h2', 'h3', 'h4'].map((h) => queue.list(h, { offset: 0, limit: 10 })),
        );
        const sentBefore = await queue.sentApplies(['0xb1', '0xb2']);

        queue = await subject.reopen!();
        const after = await Promise.all(
          ['h1', 'h2', 'h3', 'h4'].map((h) => queue.list(h, { offset: 0, limit: 10 })),
        );
        expect(after).to.deep.equal(before);
        expect(await queue.sentApplies(['0xb1', '0xb2'])).to.deep.equal(sentBefore);
        expect(await queue.nextDueAt()).to.equal(T0);
        expect(await queue.due(T0 + 60, 10, none)).to.deep.equal([
          { payload: asDue(c2), attempts: 0 },
          { payload: asDue(a2), attempts: 1 },
        ]);
        expect(await drain(queue)).to.deep.equal([c2.id, a2.id, a3.id, a1.id]);
        await queue.enqueue([a1]);
        expect((await queue.list('h1', { offset: 0, limit: 10 })).total).to.equal(3);
      },
    );

    (options.persistent ? it : () => undefined)(
      'keeps payloads that share blocks whole across a reopen, a redelivered one with its body too',
      async function () {
        const payloads = sharingBlocks(['h1', 'h2', 'h3'], 2);
        await queue.enqueue(payloads);
        await queue.recordAttempt(payloads[0].id, attemptAt(T0, 200), { state: 'delivered' });
        queue = await subject.reopen!();
        expect(await queue.redeliver('h1', payloads[0].id, T0 + 1)).to.include({ state: 'pending' });
        const due = await queue.due(T0 + 1, 10, none);
        expect(due.map((d) => d.payload)).to.have.deep.members(payloads.map(asDue));
      },
    );
  });
}
