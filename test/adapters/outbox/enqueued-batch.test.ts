import { expect } from 'chai';
import { batchOf, placedOf } from '../../../adapters/outbox/enqueued-batch.js';
import { metaOf } from '../../../adapters/outbox/outbox-entry.js';
import { T0, outgoing } from '../../contracts/delivery-queue.contract.js';

const block = (index: number) => ({ index, hash: `0x${index}` });

describe('enqueued batch', () => {
  it("gives back each payload's metadata and locator in order, through JSON", () => {
    const payloads = [
      outgoing('h1', { apply: [{ ...block(7), tx_indexes: [0, 2] }], created_at: T0 }),
      outgoing('h2', { apply: [{ ...block(7), tx_indexes: [1] }], created_at: T0 + 1 }),
      outgoing('h1', {
        kind: 'backfill',
        rollback: [block(7), block(6)],
        apply: [{ ...block(8), tx_indexes: [] }],
        created_at: T0 + 2,
      }),
    ];
    const added = payloads.map((p, i) => ({ meta: metaOf(p), loc: { seg: 3, off: 100 * i, len: 90 + i } }));
    const replayed = placedOf(JSON.parse(JSON.stringify(batchOf(added))) as ReturnType<typeof batchOf>);
    expect(replayed).to.deep.equal(added);
  });

  it('writes each block the payloads name once', () => {
    const payloads = Array.from({ length: 5 }, (_, i) =>
      outgoing(`h${i}`, { apply: [{ ...block(7), tx_indexes: [i] }], rollback: [block(6)] }),
    );
    const batch = batchOf(payloads.map((p) => ({ meta: metaOf(p), loc: { seg: 1, off: 0, len: 1 } })));
    expect(batch.blocks).to.deep.equal([
      [7, '0x7'],
      [6, '0x6'],
    ]);
  });

  it('gives each payload its own block objects, so a change to one reaches no other', () => {
    const payloads = [outgoing('h1', { rollback: [block(6)] }), outgoing('h2', { rollback: [block(6)] })];
    const batch = batchOf(payloads.map((p) => ({ meta: metaOf(p), loc: { seg: 1, off: 0, len: 1 } })));
    const [first, second] = placedOf(batch);
    first.meta.rollback[0].index = 99;
    expect(second.meta.rollback[0].index).to.equal(6);
  });
});
