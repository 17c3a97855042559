import { expect } from 'chai';
import fc from 'fast-check';
import { HashCounts } from '../../../adapters/outbox/hash-counts.js';

describe('HashCounts', () => {
  it('has a hash exactly while more are added than removed, through growth and deletions', () => {
    // Few distinct hashes (0 among them) and many operations: probe chains collide and wrap.
    const hash = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3000 }), fc.constant(0xffffffff));
    const op = fc.record({ add: fc.boolean(), hash });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 4000 }), (ops) => {
        const table = new HashCounts();
        const model = new Map<number, number>();
        for (const { add, hash: h } of ops) {
          const count = model.get(h) ?? 0;
          if (add) {
            table.add(h);
            model.set(h, count + 1);
          } else if (count > 0) {
            table.remove(h);
            model.set(h, count - 1);
          }
        }
        for (let h = 0; h <= 3000; h++) expect(table.has(h), String(h)).to.equal((model.get(h) ?? 0) > 0);
        expect(table.has(0xffffffff)).to.equal((model.get(0xffffffff) ?? 0) > 0);
      }),
      { numRuns: 60 },
    );
  });

  it('ignores a removal of a hash it does not have', () => {
    const table = new HashCounts();
    table.add(7);
    table.remove(8);
    table.remove(0);
    expect([table.has(7), table.has(8), table.has(0)]).to.deep.equal([true, false, false]);
  });
});
