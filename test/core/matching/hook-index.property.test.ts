import { expect } from 'chai';
import fc from 'fast-check';
import {
  arbitraryBlock,
  arbitraryHookSet,
  HookIndex,
  matchBlockReference,
} from '../../../apps/library/testing.js';
import type { BlockMatches } from '../../../core/matching/index.js';
import { mapTransactions, withMixedCommits } from './committed-events.js';
import { derivedFilters } from './derived-filters.js';

/** Matches as sorted entries, so that two matchers that list hooks in different orders compare equal. */
function entries(matches: BlockMatches): [string, readonly number[]][] {
  return [...matches].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

describe('HookIndex (properties)', () => {
  it('matches every block exactly as the reference matcher does', () => {
    let matched = 0;
    fc.assert(
      fc.property(arbitraryBlock(), arbitraryHookSet(), (block, hooks) => {
        const index = new HookIndex();
        for (const hook of hooks) index.add(hook.uuid, hook.filters);
        const expected = matchBlockReference(hooks, block);
        expect(entries(index.matchBlock(block))).to.deep.equal(entries(expected));
        if (expected.size > 0) matched++;
      }),
      { numRuns: 400 },
    );
    expect(matched, 'runs where some hook matched').to.be.above(80);
  });

  it('finds what the reference finds for filters made from the block itself, field by field', () => {
    let matched = 0;
    fc.assert(
      fc.property(arbitraryBlock(), fc.array(fc.boolean(), { maxLength: 5 }), (block, flags) => {
        const mixed = mapTransactions(block, (tx) => withMixedCommits(tx, flags));
        // Each filter its own hook, drawn from every transaction: most hooks match something.
        const hooks = mixed.transactions
          .flatMap(derivedFilters)
          .map((filter, i) => ({ uuid: `h${i}`, filters: [filter] }));
        const index = new HookIndex();
        for (const hook of hooks) index.add(hook.uuid, hook.filters);
        const expected = matchBlockReference(hooks, mixed);
        expect(entries(index.matchBlock(mixed))).to.deep.equal(entries(expected));
        matched += expected.size;
      }),
      { numRuns: 300 },
    );
    expect(matched, 'hooks that matched').to.be.above(1000);
  });

  it('matches as the reference does when events of one transaction are partly uncommitted', () => {
    fc.assert(
      fc.property(
        arbitraryBlock(),
        fc.array(fc.boolean(), { maxLength: 5 }),
        arbitraryHookSet(),
        (block, flags, hooks) => {
          const mixed = mapTransactions(block, (tx) => withMixedCommits(tx, flags));
          const index = new HookIndex();
          for (const hook of hooks) index.add(hook.uuid, hook.filters);
          expect(entries(index.matchBlock(mixed))).to.deep.equal(entries(matchBlockReference(hooks, mixed)));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('after hooks are replaced and removed, matches as the reference does over the hooks left', () => {
    fc.assert(
      fc.property(
        arbitraryBlock(),
        arbitraryHookSet(),
        arbitraryHookSet(),
        fc.array(fc.nat(), { maxLength: 10 }),
        (block, hooks, replacements, removals) => {
          const index = new HookIndex();
          const current = new Map(hooks.map((hook) => [hook.uuid, hook.filters]));
          for (const hook of hooks) index.add(hook.uuid, hook.filters);
          // Replace some hooks' filters with those of another generated set, under the same uuids.
          replacements.slice(0, hooks.length).forEach((replacement, i) => {
            index.add(hooks[i].uuid, replacement.filters);
            current.set(hooks[i].uuid, replacement.filters);
          });
          for (const n of removals) {
            const uuid = hooks.length > 0 ? hooks[n % hooks.length].uuid : 'absent';
            index.remove(uuid);
            current.delete(uuid);
          }
          const left = [...current].map(([uuid, filters]) => ({ uuid, filters }));
          expect(index.size).to.equal(left.length);
          expect(entries(index.matchBlock(block))).to.deep.equal(entries(matchBlockReference(left, block)));
        },
      ),
      { numRuns: 200 },
    );
  });
});
