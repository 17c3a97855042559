import { expect } from 'chai';
import type { DeliveryQueue } from '../../core/ports/delivery-queue.js';
import type { DeliveryQueueSubject } from './delivery-queue.contract.js';
import { T0, attemptAt, dueIds, ids, none, outgoing } from './delivery-queue-fixtures.js';

/** What every DeliveryQueue's log shows: a hook's payloads in pages, what a prune leaves, copies. */
export function deliveryQueueLogCases(current: () => DeliveryQueueSubject): void {
  describe('the delivery log', () => {
    let queue: DeliveryQueue;
    beforeEach(() => {
      queue = current().queue;
    });

    it('lists a hook newest first by creation then enqueue order, filtered by state, in pages', async () => {
      const [a, b, c, d] = [
        outgoing('h1', { id: 'a', created_at: T0 + 10 }),
        outgoing('h1', { id: 'b', created_at: T0 + 30 }),
        outgoing('h1', { id: 'c', created_at: T0 + 10 }),
        outgoing('h1', { id: 'd', created_at: T0 + 20 }),
      ];
      await queue.enqueue([a, b, c, d, outgoing('h2')]);
      await queue.recordAttempt('a', attemptAt(T0 + 40, 200), { state: 'delivered' });
      const first = await queue.list('h1', { offset: 0, limit: 3 });
      const rest = await queue.list('h1', { offset: 3, limit: 3 });
      expect([first.total, rest.total]).to.deep.equal([4, 4]);
      expect(ids([...first.results, ...rest.results])).to.deep.equal(['b', 'd', 'c', 'a']);
      const pending = await queue.list('h1', { state: 'pending', offset: 1, limit: 1 });
      expect(pending.total).to.equal(3);
      expect(ids(pending.results)).to.deep.equal(['d']);
      expect(
        ids((await queue.list('h1', { state: 'delivered', offset: 0, limit: 5 })).results),
      ).to.deep.equal(['a']);
      expect(await queue.get('h2', 'a')).to.equal(undefined);
    });

    it('prunes settled payloads created before the cutoff and never a pending one', async () => {
      const [old1, old2, oldPending, fresh] = [
        outgoing('h1', { created_at: T0 }),
        outgoing('h2', { created_at: T0 + 1 }),
        outgoing('h1', { created_at: T0 + 2 }),
        outgoing('h2', { created_at: T0 + 500 }),
      ];
      await queue.enqueue([old1, old2, oldPending, fresh]);
      await queue.recordAttempt(old1.id, attemptAt(T0, 200), { state: 'delivered' });
      await queue.recordAttempt(old2.id, attemptAt(T0, 500), { state: 'failed', reason: 'no' });
      await queue.recordAttempt(fresh.id, attemptAt(T0 + 500, 200), { state: 'delivered' });
      expect(await queue.prune(T0 + 100)).to.equal(2);
      expect(await queue.get('h1', old1.id)).to.equal(undefined);
      expect(await queue.get('h2', old2.id)).to.equal(undefined);
      expect(await queue.get('h1', oldPending.id)).to.include({ state: 'pending' });
      expect(await queue.get('h2', fresh.id)).to.include({ state: 'delivered' });
      expect(await dueIds(queue, T0 + 1000)).to.deep.equal([oldPending.id]);
    });

    it('hands out copies: editing what it returned changes nothing inside', async () => {
      const p = outgoing('h1', { apply: [{ index: 1, hash: '0xb1', tx_indexes: [0] }] });
      await queue.enqueue([p]);
      await queue.recordAttempt(p.id, attemptAt(T0), { state: 'pending', next_attempt_at: T0 });
      const record = (await queue.get('h1', p.id))!;
      record.attempts.push(attemptAt(T0 + 1));
      record.apply[0].tx_indexes.push(9);
      (await queue.list('h1', { offset: 0, limit: 1 })).results[0].attempts.length = 0;
      const [due] = await queue.due(T0, 1, none);
      due.payload.apply.length = 0;
      (await queue.sentApplies(['0xb1'])).get('h1')!.get('0xb1')!.push(4);
      p.apply[0].tx_indexes.push(8);
      const again = (await queue.get('h1', p.id))!;
      expect(again.attempts).to.have.length(1);
      expect(again.apply[0].tx_indexes).to.deep.equal([0]);
      expect((await queue.due(T0, 1, none))[0].payload.apply).to.have.length(1);
      expect((await queue.sentApplies(['0xb1'])).get('h1')!.get('0xb1')).to.deep.equal([0]);
    });
  });
}
