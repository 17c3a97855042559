import { expect } from 'chai';
import { createHook } from '../../../core/hooks/lifecycle.js';
import { isListFiltered, matchesListFilter } from '../../../core/hooks/list-filter.js';
import { toHookRecord } from '../../../core/hooks/record.js';
import { sampleDefinition } from '../../support/definitions.js';

const hook = toHookRecord(
  createHook(
    'alice',
    '00000000-0000-4000-8000-000000000001',
    sampleDefinition({ name: 'sBTC Transfers' }),
    0,
  ),
);

describe('matchesListFilter', () => {
  it('passes every hook through an empty filter', () => {
    expect(isListFiltered({})).to.equal(false);
    expect(matchesListFilter(hook, {})).to.equal(true);
  });

  it('matches a part of the name without regard to case', () => {
    expect(matchesListFilter(hook, { name: 'btc tr' })).to.equal(true);
    expect(matchesListFilter(hook, { name: 'SBTC' })).to.equal(true);
    expect(matchesListFilter(hook, { name: 'mints' })).to.equal(false);
  });

  it('requires every given field to match', () => {
    expect(matchesListFilter(hook, { name: 'sbtc', status: 'new', enabled: false })).to.equal(true);
    expect(matchesListFilter(hook, { name: 'sbtc', status: 'streaming' })).to.equal(false);
    expect(matchesListFilter(hook, { name: 'sbtc', enabled: true })).to.equal(false);
  });
});
