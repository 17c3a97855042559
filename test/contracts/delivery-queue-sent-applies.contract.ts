import { expect } from 'chai';
import type { DeliveryQueue } from '../../core/ports/delivery-queue.js';
import type { DeliveryQueueSubject } from './delivery-queue.contract.js';
import { outgoing } from './delivery-queue-fixtures.js';

/** Which transactions of a block every DeliveryQueue says it sent each hook, until rolled back. */
export function deliveryQueueSentAppliesCases(current: () => DeliveryQueueSubject): void {
  describe('sent applies', () => {
    let queue: DeliveryQueue;
    beforeEach(() => {
      queue = current().queue;
    });

    it('tells which hooks were sent which transactions of a block in a live apply', async () => {
      await queue.enqueue([
        outgoing('h1', { apply: [{ index: 1, hash: '0xb1', tx_indexes: [0, 3] }] }),
        outgoing('h2', { apply: [{ index: 1, hash: '0xb1', tx_indexes: [1] }] }),
        outgoing('h3', { kind: 'evaluation', apply: [{ index: 1, hash: '0xb1', tx_indexes: [2] }] }),
        outgoing('h1', { apply: [{ index: 2, hash: '0xb2', tx_indexes: [5] }] }),
      ]);
      const sent = await queue.sentApplies(['0xb1', '0xb2', '0xunknown']);
      expect([...sent.keys()].sort()).to.deep.equal(['h1', 'h2']);
      expect(Object.fromEntries(sent.get('h1')!)).to.deep.equal({ '0xb1': [0, 3], '0xb2': [5] });
      expect(Object.fromEntries(sent.get('h2')!)).to.deep.equal({ '0xb1': [1] });
    });

    it('remembers the apply of a backfill payload marked remembered, and of no other backfill payload', async () => {
      await queue.enqueue([
        {
          ...outgoing('h1', { kind: 'backfill', apply: [{ index: 7, hash: '0xb7', tx_indexes: [2] }] }),
          remembered: true,
        },
        outgoing('h2', { kind: 'backfill', apply: [{ index: 7, hash: '0xb7', tx_indexes: [4] }] }),
      ]);
      const expected = { h1: { '0xb7': [2] } };
      const sentOf = (sent: Map<string, Map<string, number[]>>) =>
        Object.fromEntries([...sent].map(([hook, blocks]) => [hook, Object.fromEntries(blocks)]));
      expect(sentOf(await queue.sentApplies(['0xb7']))).to.deep.equal(expected);
      const { reopen } = current();
      if (reopen) expect(sentOf(await (await reopen()).sentApplies(['0xb7']))).to.deep.equal(expected);
    });

    it('forgets a block that a later live payload of the hook rolled back', async () => {
      const b1 = { index: 1, hash: '0xb1', tx_indexes: [0] };
      await queue.enqueue([outgoing('h1', { apply: [b1] }), outgoing('h2', { apply: [b1] })]);
      await queue.enqueue([outgoing('h1', { rollback: [{ index: 1, hash: '0xb1' }], apply: [] })]);
      const sent = await queue.sentApplies(['0xb1']);
      expect([...sent.keys()]).to.deep.equal(['h2']);
    });
  });
}
