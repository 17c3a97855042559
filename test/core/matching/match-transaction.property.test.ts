import { expect } from 'chai';
import fc from 'fast-check';
import {
  arbitraryBlock,
  arbitraryEventFilter,
  arbitraryTransaction,
  HookIndex,
  matchTransaction,
  matchesAnyFilter,
} from '../../../apps/library/testing.js';
import type { EventFilter } from '../../../core/hooks/definition.js';
import { withMixedCommits, withoutUncommitted } from './committed-events.js';

/** The filter without one of its narrowing fields: `balance_change.principal` is required, so never dropped. */
function widenings(filter: EventFilter): EventFilter[] {
  return Object.keys(filter)
    .filter((key) => key !== 'type' && !(filter.type === 'balance_change' && key === 'principal'))
    .map((key) => {
      const wider: Record<string, unknown> = { ...filter };
      delete wider[key];
      return wider as EventFilter;
    });
}

describe('matchTransaction (properties)', () => {
  it('a hook with filters A and B matches exactly the union of what A and B match', () => {
    let nonEmpty = 0;
    fc.assert(
      fc.property(arbitraryBlock(), arbitraryEventFilter(), arbitraryEventFilter(), (block, a, b) => {
        const index = new HookIndex();
        index.add('ab', [a, b]);
        index.add('a', [a]);
        index.add('b', [b]);
        const matches = index.matchBlock(block);
        const union = [...new Set([...(matches.get('a') ?? []), ...(matches.get('b') ?? [])])].sort(
          (x, y) => x - y,
        );
        expect(matches.get('ab') ?? []).to.deep.equal(union);
        block.transactions.forEach((tx, i) => {
          expect(matchesAnyFilter([a, b], tx)).to.equal(union.includes(i));
        });
        if (union.length > 0) nonEmpty++;
      }),
      { numRuns: 400 },
    );
    expect(nonEmpty, 'runs where something matched').to.be.above(40);
  });

  it('adding a narrowing field never adds a match', () => {
    let narrowed = 0;
    fc.assert(
      fc.property(arbitraryBlock(), arbitraryEventFilter(), (block, filter) => {
        for (const tx of block.transactions) {
          const matches = matchTransaction(filter, tx);
          for (const wider of widenings(filter)) {
            const widerMatches = matchTransaction(wider, tx);
            if (matches) expect(widerMatches, JSON.stringify(wider)).to.equal(true);
            if (widerMatches && !matches) narrowed++;
          }
        }
      }),
      { numRuns: 1000 },
    );
    expect(narrowed, 'cases where the field did narrow').to.be.above(20);
  });

  it('no filter matches a transaction only through its uncommitted events', () => {
    let dropped = 0;
    fc.assert(
      fc.property(
        arbitraryTransaction({ maxEvents: 6 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }),
        arbitraryEventFilter(),
        (generated, flags, filter) => {
          const mixed = withMixedCommits(generated, flags);
          const committedOnly = withoutUncommitted(mixed);
          expect(matchTransaction(filter, mixed)).to.equal(matchTransaction(filter, committedOnly));
          if (committedOnly.events.length < mixed.events.length) dropped++;
        },
      ),
      { numRuns: 1000 },
    );
    expect(dropped, 'cases with uncommitted events').to.be.above(100);
  });
});
