import { expect } from 'chai';
import fc from 'fast-check';
import { createAjvInputValidator } from '../../../../adapters/contract-ajv/index.js';
import { EVENT_FILTER_TYPES, type EventFilter } from '../../../../core/hooks/definition.js';
import { arbitraryEventFilter, arbitraryHook } from '../../../../apps/library/testing.js';

const validator = createAjvInputValidator();

/** A valid definition around these filters. */
function definition(events: EventFilter[]): unknown {
  return {
    name: 'generated',
    version: '1',
    chain: 'stacks',
    network: 'mainnet',
    filters: { events },
    action: { type: 'http_post', url: 'https://example.com/hook' },
  };
}

describe('arbitraryEventFilter', () => {
  it('generates filters the definition schema accepts, unchanged', () => {
    fc.assert(
      fc.property(arbitraryEventFilter(), (filter) => {
        const checked = validator.check('definition', definition([filter]));
        expect(checked.filters.events).to.deep.equal([filter]);
      }),
      { numRuns: 1000 },
    );
  });

  it('generates every one of the 18 types, each with and without narrowing fields', () => {
    const seen = new Set<string>();
    for (const filter of fc.sample(arbitraryEventFilter(), 3000)) {
      seen.add(`${filter.type}:${Object.keys(filter).length > 1 ? 'narrowed' : 'bare'}`);
    }
    const expected = EVENT_FILTER_TYPES.flatMap((type) =>
      // These three have no narrowing field; balance_change always has its principal.
      ['stx_event', 'coinbase'].includes(type)
        ? [`${type}:bare`]
        : type === 'balance_change'
          ? [`${type}:narrowed`]
          : [`${type}:bare`, `${type}:narrowed`],
    );
    expect([...seen].sort()).to.deep.equal(expected.sort());
  });

  it('keeps to the asked types', () => {
    for (const filter of fc.sample(arbitraryEventFilter({ types: ['nft_event', 'coinbase'] }), 200)) {
      expect(['nft_event', 'coinbase']).to.include(filter.type);
    }
  });
});

describe('arbitraryHook', () => {
  it('generates hooks whose filters make a valid definition', () => {
    fc.assert(
      fc.property(arbitraryHook(), (hook) => {
        expect(hook.uuid).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        validator.check('definition', definition(hook.filters));
      }),
      { numRuns: 300 },
    );
  });
});
