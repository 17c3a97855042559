import { expect } from 'chai';
import { BodyCache } from '../../../adapters/outbox/body-cache.js';
import { outgoing } from '../../contracts/delivery-queue.contract.js';

const body = (id: string) => outgoing('h1', { id }).body;
const held = (cache: BodyCache, ids: readonly string[]) => ids.filter((id) => cache.get(id) !== undefined);

describe('BodyCache', () => {
  it('lets the oldest bodies go first once past its budget, a body put again counting as the newest', () => {
    const cache = new BodyCache(300);
    for (const id of ['a', 'b', 'c']) cache.put(id, body(id), 100);
    cache.put('a', body('a'), 100);
    cache.put('d', body('d'), 100);
    expect(held(cache, ['a', 'b', 'c', 'd'])).to.deep.equal(['a', 'c', 'd']);
    expect(cache.size).to.equal(300);
  });

  it('holds what a plain oldest-first queue holds through a long churn of puts and drops', () => {
    const cache = new BodyCache(1_000);
    // The model: ids in the order they were put, the oldest let go while over budget.
    let model: string[] = [];
    const ids = Array.from({ length: 5_000 }, (_, i) => `p${i}`);
    for (const [i, id] of ids.entries()) {
      cache.put(id, body(id), 10);
      model.push(id);
      if (model.length > 100) model.shift();
      // Some settle (their bodies dropped) before they would be let go.
      if (i % 7 === 3) {
        cache.drop(ids[i - 2]);
        model = model.filter((m) => m !== ids[i - 2]);
      }
    }
    expect(held(cache, ids)).to.deep.equal(model);
    expect(cache.size).to.equal(model.length * 10);
  });

  it('keeps nothing bigger than its whole budget', () => {
    const cache = new BodyCache(50);
    cache.put('big', body('big'), 51);
    expect(cache.get('big')).to.equal(undefined);
    expect(cache.size).to.equal(0);
  });
});
