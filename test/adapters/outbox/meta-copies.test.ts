import { expect } from 'chai';
import { MetaCopies, metaOf } from '../../../adapters/outbox/outbox-entry.js';
import { outgoing } from '../../contracts/delivery-queue.contract.js';

const block = (index: number, tx: number[]) => [{ index, hash: `0x${index}`, tx_indexes: tx }];

describe('MetaCopies', () => {
  it('gives each payload the metadata metaOf gives', () => {
    const copies = new MetaCopies();
    const payloads = [
      outgoing('h1', { apply: block(7, [0]) }),
      outgoing('h2', { apply: block(7, [0]) }),
      outgoing('h3', { apply: block(7, [1]), rollback: [{ index: 6, hash: '0x6' }] }),
      outgoing('h4', { apply: block(8, [1]), rollback: [{ index: 6, hash: '0x6' }] }),
    ];
    for (const p of payloads) expect(copies.copy(p)).to.deep.equal(metaOf(p));
  });

  it('shares block lists between payloads in a row that name the same blocks, and only those', () => {
    const copies = new MetaCopies();
    const [a, b, c] = [block(7, [0]), block(7, [0]), block(7, [0, 1])].map((apply, i) =>
      copies.copy(outgoing(`h${i}`, { apply })),
    );
    expect(b.apply).to.equal(a.apply);
    expect(b.rollback).to.equal(a.rollback);
    expect(c.apply).to.not.equal(a.apply);
    expect(c.apply).to.deep.equal(block(7, [0, 1]));
  });

  it("keeps lists of its own, which later edits of the caller's payload do not reach", () => {
    const copies = new MetaCopies();
    const payload = outgoing('h1', { apply: block(7, [0]) });
    const meta = copies.copy(payload);
    payload.apply[0].tx_indexes.push(5);
    payload.apply.push(...block(9, [0]));
    expect(meta.apply).to.deep.equal(block(7, [0]));
  });
});
