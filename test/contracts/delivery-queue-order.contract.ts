import { expect } from 'chai';
import type { DeliveryQueue } from '../../core/ports/delivery-queue.js';
import type { DeliveryQueueSubject } from './delivery-queue.contract.js';
import { asDue, attemptAt, drain, dueIds, none, outgoing, T0 } from './delivery-queue-fixtures.js';

/** What every DeliveryQueue keeps of what it is given, and the order it hands out heads: one per hook. */
export function deliveryQueueOrderCases(current: () => DeliveryQueueSubject): void {
  describe('enqueue and due order', () => {
    let queue: DeliveryQueue;
    beforeEach(() => {
      queue = current().queue;
    });

    it('logs a new payload as pending, due at its creation, with no attempts', async () => {
      const p = outgoing('h1', {
        created_at: T0 + 5,
        apply: [{ index: 7, hash: '0x07', tx_indexes: [0, 2] }],
      });
      await queue.enqueue([p]);
      expect(await queue.get('h1', p.id)).to.deep.equal({
        id: p.id,
        hook_uuid: 'h1',
        kind: 'live',
        state: 'pending',
        apply: p.apply,
        rollback: [],
        created_at: T0 + 5,
        next_attempt_at: T0 + 5,
        failure_reason: null,
        held_reason: null,
        attempts: [],
      });
      const [due] = await queue.due(T0 + 5, 10, none);
      expect(due).to.deep.equal({ payload: asDue(p), attempts: 0 });
    });

    it('gives back bodies with quotes, backslashes, control characters and non-ASCII text as queued, from a batch', async () => {
      const awkward = 'a "quoted" \\ back\\slash, tab\t, newline\n, \u0001, ünïcødé ✓, emoji 🚀, </script>';
      const block = {
        block_identifier: { index: 7, hash: '0x07' },
        parent_block_identifier: { index: 6, hash: '0x06' },
        timestamp: 1,
        transactions: [],
        metadata: { note: awkward } as never,
      };
      const payloads = ['h1', 'h2', 'h3'].map((hook) => {
        const p = outgoing(hook, { created_at: T0 });
        return { ...p, body: { ...p.body, event: { ...p.body.event, apply: [block] } } };
      });
      payloads[1].body.chainhook.name = awkward;
      await queue.enqueue(payloads);
      const due = await queue.due(T0, 10, none);
      const byId = new Map(due.map((d) => [d.payload.id, d.payload]));
      for (const p of payloads) expect(byId.get(p.id)).to.deep.equal(asDue(p));
    });

    it('skips a payload whose id is already queued, within one call and across calls', async () => {
      const p = outgoing('h1');
      await queue.enqueue([p, { ...p, created_at: T0 + 1 }]);
      await queue.enqueue([{ ...p, created_at: T0 + 2 }]);
      const page = await queue.list('h1', { offset: 0, limit: 10 });
      expect(page.total).to.equal(1);
      expect(page.results[0].created_at).to.equal(T0);
    });

    it('makes only the oldest pending payload of a hook due', async () => {
      const [a, b, c] = [outgoing('h1'), outgoing('h1'), outgoing('h1')];
      await queue.enqueue([a, b, c]);
      expect(await dueIds(queue, T0 + 1000)).to.deep.equal([a.id]);
    });

    it('returns heads earliest due first across hooks, at most `limit`, skipping busy hooks', async () => {
      await queue.enqueue([
        outgoing('h3', { id: 'c', created_at: T0 + 30 }),
        outgoing('h1', { id: 'a', created_at: T0 + 10 }),
        outgoing('h2', { id: 'b', created_at: T0 + 20 }),
        outgoing('h4', { id: 'd', created_at: T0 + 40 }),
      ]);
      expect(await dueIds(queue, T0 + 100, 2)).to.deep.equal(['a', 'b']);
      expect(await dueIds(queue, T0 + 100, 10, new Set(['h2', 'h3']))).to.deep.equal(['a', 'd']);
      expect(await dueIds(queue, T0 + 25)).to.deep.equal(['a', 'b']);
    });

    it('breaks a tie in due time by enqueue order', async () => {
      const hooks = ['h5', 'h3', 'h1', 'h4', 'h2', 'h7', 'h6'];
      await queue.enqueue(hooks.map((hook) => outgoing(hook, { id: `first-${hook}` })));
      expect(await dueIds(queue, T0)).to.deep.equal(hooks.map((hook) => `first-${hook}`));
    });

    it('reports the earliest due time, and none once nothing is pending', async () => {
      expect(await queue.nextDueAt()).to.equal(undefined);
      await queue.enqueue([outgoing('h1', { id: 'late', created_at: T0 + 50 }), outgoing('h2', { id: 'x' })]);
      expect(await queue.nextDueAt()).to.equal(T0);
      await drain(queue);
      expect(await queue.nextDueAt()).to.equal(undefined);
    });

    it('sums the pending payloads and dates the oldest head, and reports none once all are settled', async () => {
      expect(await queue.pendingSummary()).to.deep.equal({ pending: 0, oldestHeadCreatedAt: undefined });
      await queue.enqueue([
        outgoing('h1', { id: 'a', created_at: T0 + 10 }),
        outgoing('h1', { id: 'b', created_at: T0 + 5 }),
        outgoing('h2', { id: 'c', created_at: T0 + 20 }),
      ]);
      // h1's head is `a` (queue order), so `b`, created earlier but waiting behind it, is not the oldest head.
      expect(await queue.pendingSummary()).to.deep.equal({ pending: 3, oldestHeadCreatedAt: T0 + 10 });
      await queue.recordAttempt('a', attemptAt(T0 + 30, 200), { state: 'delivered' });
      expect(await queue.pendingSummary()).to.deep.equal({ pending: 2, oldestHeadCreatedAt: T0 + 5 });
      await drain(queue);
      expect(await queue.pendingSummary()).to.deep.equal({ pending: 0, oldestHeadCreatedAt: undefined });
    });
  });
}
