import { expect } from 'chai';
import { IdQueue } from '../../../adapters/outbox/id-queue.js';

describe('IdQueue', () => {
  it('gives its ids back oldest first, whether taken from the front or the middle', () => {
    const queue = new IdQueue();
    for (const id of ['a', 'b', 'c', 'd']) queue.push(id);
    expect(queue.remove('a')).to.equal(true);
    expect(queue.remove('c')).to.equal(true);
    expect(queue.remove('c')).to.equal(false);
    expect(queue.first()).to.equal('b');
    expect(queue.toArray()).to.deep.equal(['b', 'd']);
  });

  it('holds only the ids still waiting, however many were taken from the front', () => {
    const queue = new IdQueue();
    const ids = Array.from({ length: 2000 }, (_, i) => `msg_${i}`);
    for (const id of ids) queue.push(id);
    for (const id of ids.slice(0, 1500)) queue.remove(id);
    expect(queue.length).to.equal(500);
    expect(queue.held).to.equal(500);
    expect(queue.toArray()).to.deep.equal(ids.slice(1500));
  });
});
