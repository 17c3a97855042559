import { expect } from 'chai';
import type { DeliveryQueue } from '../../core/ports/delivery-queue.js';
import type { DeliveryQueueSubject } from './delivery-queue.contract.js';
import { asDue, attemptAt, dueIds, none, outgoing, T0 } from './delivery-queue-fixtures.js';

/** How every DeliveryQueue records attempts, one or a batch: retried, held, delivered or failed. */
export function deliveryQueueAttemptCases(current: () => DeliveryQueueSubject): void {
  describe('recording attempts', () => {
    let queue: DeliveryQueue;
    beforeEach(() => {
      queue = current().queue;
    });

    it('keeps a retried payload at the head of its hook until it is settled', async () => {
      const [a, b] = [outgoing('h1'), outgoing('h1')];
      await queue.enqueue([a, b]);
      await queue.recordAttempt(a.id, attemptAt(T0), { state: 'pending', next_attempt_at: T0 + 1000 });
      expect(await dueIds(queue, T0 + 999)).to.deep.equal([]);
      expect(await queue.nextDueAt()).to.equal(T0 + 1000);
      expect(await queue.due(T0 + 1000, 10, none)).to.deep.equal([{ payload: asDue(a), attempts: 1 }]);
      await queue.recordAttempt(a.id, attemptAt(T0 + 1000, 200), { state: 'delivered' });
      expect(await dueIds(queue, T0 + 1000)).to.deep.equal([b.id]);
    });

    it('puts a taken head back unsent: due later, with the reason it is held, and no attempt logged', async () => {
      const [a, b] = [outgoing('h1'), outgoing('h1')];
      await queue.enqueue([a, b]);
      expect(await dueIds(queue, T0)).to.deep.equal([a.id]);
      const held = {
        state: 'pending' as const,
        next_attempt_at: T0 + 700,
        held_reason: 'the circuit is open',
      };
      await queue.recordAttempts([{ id: a.id, attempt: null, outcome: held }]);
      expect(await dueIds(queue, T0 + 699)).to.deep.equal([]);
      expect(await queue.nextDueAt()).to.equal(T0 + 700);
      expect(await queue.get('h1', a.id)).to.include({
        state: 'pending',
        next_attempt_at: T0 + 700,
        held_reason: 'the circuit is open',
      });
      expect((await queue.get('h1', a.id))?.attempts).to.deep.equal([]);
      expect(await queue.due(T0 + 700, 10, none)).to.deep.equal([{ payload: asDue(a), attempts: 0 }]);
      // The next attempt clears the reason; the lane it ran in is logged with it.
      const attempt = { ...attemptAt(T0 + 700, 200), lane: 'slow' as const };
      await queue.recordAttempt(a.id, attempt, { state: 'delivered' });
      expect(await queue.get('h1', a.id)).to.deep.include({
        state: 'delivered',
        held_reason: null,
        attempts: [attempt],
      });
      expect(await dueIds(queue, T0 + 700)).to.deep.equal([b.id]);
    });

    it('moves on to the next payload when the head fails, and logs the reason', async () => {
      const [a, b] = [outgoing('h1'), outgoing('h1')];
      await queue.enqueue([a, b]);
      await queue.recordAttempt(a.id, attemptAt(T0, 410), { state: 'failed', reason: 'HTTP 410 Gone' });
      expect(await dueIds(queue, T0)).to.deep.equal([b.id]);
      const record = await queue.get('h1', a.id);
      expect(record).to.include({ state: 'failed', failure_reason: 'HTTP 410 Gone', next_attempt_at: null });
      expect(record?.attempts).to.deep.equal([attemptAt(T0, 410)]);
    });

    it('records a batch of attempts on several hooks in one call: a delivery, a retry and a failure', async () => {
      const [a1, a2, b1, b2, c1, c2] = ['h1', 'h1', 'h2', 'h2', 'h3', 'h3'].map((hook) => outgoing(hook));
      await queue.enqueue([a1, a2, b1, b2, c1, c2]);
      expect(await dueIds(queue, T0)).to.deep.equal([a1.id, b1.id, c1.id]);
      await queue.recordAttempts([
        { id: a1.id, attempt: attemptAt(T0, 200), outcome: { state: 'delivered' } },
        { id: b1.id, attempt: attemptAt(T0), outcome: { state: 'pending', next_attempt_at: T0 + 500 } },
        { id: c1.id, attempt: attemptAt(T0, 410), outcome: { state: 'failed', reason: 'HTTP 410 Gone' } },
      ]);
      expect(await dueIds(queue, T0)).to.deep.equal([a2.id, c2.id]);
      expect(await dueIds(queue, T0 + 500)).to.deep.equal([a2.id, c2.id, b1.id]);
      expect(await queue.get('h1', a1.id)).to.include({ state: 'delivered', next_attempt_at: null });
      expect(await queue.get('h2', b1.id)).to.include({ state: 'pending', next_attempt_at: T0 + 500 });
      const failed = await queue.get('h3', c1.id);
      expect(failed).to.include({ state: 'failed', failure_reason: 'HTTP 410 Gone' });
      expect(failed?.attempts).to.deep.equal([attemptAt(T0, 410)]);
    });

    it('applies a batch in order when it names one payload twice or two of one hook, ignoring unknown ids', async () => {
      const [a1, a2, a3] = [outgoing('h1'), outgoing('h1'), outgoing('h1')];
      await queue.enqueue([a1, a2, a3]);
      await queue.recordAttempts([
        { id: a1.id, attempt: attemptAt(T0), outcome: { state: 'pending', next_attempt_at: T0 + 10 } },
        { id: 'no-such-payload', attempt: attemptAt(T0, 200), outcome: { state: 'delivered' } },
        { id: a1.id, attempt: attemptAt(T0 + 10, 200), outcome: { state: 'delivered' } },
        { id: a2.id, attempt: attemptAt(T0 + 11, 200), outcome: { state: 'delivered' } },
      ]);
      expect((await queue.get('h1', a1.id))?.attempts.map((a) => a.at)).to.deep.equal([T0, T0 + 10]);
      expect(await queue.get('h1', a2.id)).to.include({ state: 'delivered' });
      expect(await dueIds(queue, T0)).to.deep.equal([a3.id]);
      await queue.recordAttempts([]);
      expect(await dueIds(queue, T0)).to.deep.equal([a3.id]);
    });
  });
}
