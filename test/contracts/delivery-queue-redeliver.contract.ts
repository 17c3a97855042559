import { expect } from 'chai';
import type { DeliveryQueue } from '../../core/ports/delivery-queue.js';
import type { DeliveryQueueSubject } from './delivery-queue.contract.js';
import { asDue, attemptAt, drain, none, outgoing, T0 } from './delivery-queue-fixtures.js';

/** Where every DeliveryQueue puts a payload asked to be redelivered, settled or still pending. */
export function deliveryQueueRedeliverCases(current: () => DeliveryQueueSubject): void {
  describe('redelivery', () => {
    let queue: DeliveryQueue;
    beforeEach(() => {
      queue = current().queue;
    });

    it('redelivers a settled payload behind the hook’s pending ones, keeping its id and attempts', async () => {
      const [a, b] = [outgoing('h1'), outgoing('h1')];
      await queue.enqueue([a, b]);
      await queue.recordAttempt(a.id, attemptAt(T0, 500), { state: 'failed', reason: 'gave up' });
      const record = await queue.redeliver('h1', a.id, T0 + 100);
      expect(record).to.include({
        id: a.id,
        state: 'pending',
        next_attempt_at: T0 + 100,
        failure_reason: null,
      });
      expect(record?.attempts).to.have.length(1);
      expect(await drain(queue)).to.deep.equal([b.id, a.id]);
      await queue.redeliver('h1', b.id, T0 + 200);
      expect(await queue.due(T0 + 200, 10, none)).to.deep.equal([{ payload: asDue(b), attempts: 1 }]);
    });

    it('leaves a payload that is still pending where it is when asked to redeliver it', async () => {
      const [a, b] = [outgoing('h1'), outgoing('h1')];
      await queue.enqueue([a, b]);
      expect(await queue.redeliver('h1', a.id, T0 + 100)).to.include({
        state: 'pending',
        next_attempt_at: T0,
      });
      expect(await drain(queue)).to.deep.equal([a.id, b.id]);
      expect(await queue.redeliver('h2', a.id, T0)).to.equal(undefined);
      expect(await queue.redeliver('h1', 'msg_unknown', T0)).to.equal(undefined);
    });

    it('makes a pending payload waiting for its retry due at once when asked to redeliver it', async () => {
      const [a, b] = [outgoing('h1'), outgoing('h1')];
      await queue.enqueue([a, b]);
      await queue.recordAttempt(a.id, attemptAt(T0, 500), {
        state: 'pending',
        next_attempt_at: T0 + 800_000,
      });
      expect(await queue.due(T0 + 10, 10, none)).to.deep.equal([]);
      expect(await queue.redeliver('h1', a.id, T0 + 10)).to.include({
        state: 'pending',
        next_attempt_at: T0 + 10,
      });
      expect(await queue.nextDueAt()).to.equal(T0 + 10);
      expect(await queue.due(T0 + 10, 10, none)).to.deep.equal([{ payload: asDue(a), attempts: 1 }]);
    });

    it('sends the payloads ahead of a pending one asked to be redelivered first, in order', async () => {
      const [a, b, c] = [outgoing('h1'), outgoing('h1'), outgoing('h1')];
      await queue.enqueue([a, b, c]);
      await queue.recordAttempt(a.id, attemptAt(T0, 500), {
        state: 'pending',
        next_attempt_at: T0 + 800_000,
      });
      // c waits behind a and b (on disk, where the outbox keeps only two in memory): asking for it
      // brings the hook's queue forward, a first.
      expect(await queue.redeliver('h1', c.id, T0 + 10)).to.include({ id: c.id, state: 'pending' });
      expect(await queue.due(T0 + 10, 10, none)).to.deep.equal([{ payload: asDue(a), attempts: 1 }]);
      await queue.recordAttempt(a.id, attemptAt(T0 + 10, 200), { state: 'delivered' });
      expect(await drain(queue)).to.deep.equal([b.id, c.id]);
    });
  });
}
