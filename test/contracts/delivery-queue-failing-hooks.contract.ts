import { expect } from 'chai';
import type { DeliveryQueue } from '../../core/ports/delivery-queue.js';
import type { DeliveryQueueSubject } from './delivery-queue.contract.js';
import { T0, attemptAt, drain, dueIds, outgoing } from './delivery-queue-fixtures.js';

/** How every DeliveryQueue fails the pending payloads of a hook, and forgets a dropped hook. */
export function deliveryQueueFailingHookCases(current: () => DeliveryQueueSubject): void {
  describe('failing and dropping a hook', () => {
    let subject: DeliveryQueueSubject;
    let queue: DeliveryQueue;
    beforeEach(() => {
      subject = current();
      queue = subject.queue;
    });

    it('fails every pending payload of a hook without adding attempts, leaving other hooks alone', async () => {
      const [a, b, other] = [outgoing('h1'), outgoing('h1'), outgoing('h2')];
      await queue.enqueue([a, b, other]);
      await queue.failPending('h1', 'interrupted');
      for (const id of [a.id, b.id])
        expect(await queue.get('h1', id)).to.include({ state: 'failed', failure_reason: 'interrupted' });
      expect((await queue.get('h1', a.id))?.attempts).to.deep.equal([]);
      expect(await dueIds(queue, T0)).to.deep.equal([other.id]);
    });

    it('spares the payload in flight when failing a hook, so a redeliver after its own failure stands', async () => {
      const [a, b] = [outgoing('h1'), outgoing('h1')];
      await queue.enqueue([a, b]);
      expect(await dueIds(queue, T0)).to.deep.equal([a.id]);
      await queue.failPending('h1', 'interrupted', a.id);
      expect(await queue.get('h1', b.id)).to.include({ state: 'failed', failure_reason: 'interrupted' });
      expect(await queue.get('h1', a.id)).to.include({ state: 'pending' });
      await queue.recordAttempt(a.id, attemptAt(T0, 410), { state: 'failed', reason: 'gone' });
      expect(await queue.get('h1', a.id)).to.include({ state: 'failed', failure_reason: 'gone' });
      await queue.redeliver('h1', a.id, T0 + 1);
      if (subject.reopen) queue = await subject.reopen();
      expect(await queue.get('h1', b.id)).to.include({ state: 'failed' });
      expect(await drain(queue)).to.deep.equal([a.id]);
    });

    it('forgets a dropped hook entirely: queue, log and sent blocks', async () => {
      const b1 = { index: 1, hash: '0xb1', tx_indexes: [0] };
      const [a, other] = [outgoing('h1', { apply: [b1] }), outgoing('h2', { apply: [b1] })];
      await queue.enqueue([a, other]);
      await queue.dropHook('h1');
      expect(await queue.get('h1', a.id)).to.equal(undefined);
      expect(await queue.list('h1', { offset: 0, limit: 10 })).to.deep.equal({ total: 0, results: [] });
      expect(await dueIds(queue, T0)).to.deep.equal([other.id]);
      expect([...(await queue.sentApplies(['0xb1'])).keys()]).to.deep.equal(['h2']);
      // An attempt that was in flight when the hook went is dropped too.
      await queue.recordAttempt(a.id, attemptAt(T0, 200), { state: 'delivered' });
      expect(await queue.get('h1', a.id)).to.equal(undefined);
    });
  });
}
