import { expect } from 'chai';
import { fieldPath, pathDepth } from '../../../adapters/contract-ajv/field-path.js';

describe('fieldPath', () => {
  it('names the root when the path is empty', () => {
    expect(fieldPath('body', '', {})).to.equal('body');
  });

  it('writes array indexes in brackets and keys with dots', () => {
    const data = { filters: { events: [{}, { type: 'x' }] } };
    expect(fieldPath('body', '/filters/events/1/type', data)).to.equal('filters.events[1].type');
  });

  it('writes a numeric key of an object with brackets and quotes, not as an index', () => {
    expect(fieldPath('body', '/options/0', { options: { 0: true } })).to.equal('options["0"]');
  });

  it('appends the property a problem is about', () => {
    expect(fieldPath('body', '/options', { options: {} }, 'foo')).to.equal('options.foo');
    expect(fieldPath('body', '', {}, 'foo')).to.equal('foo');
  });

  it('unescapes ~1 and ~0 of the JSON pointer', () => {
    expect(fieldPath('body', '', {}, 'a/b')).to.equal('["a/b"]');
    expect(fieldPath('body', '/a~1b/c~0d', { 'a/b': { 'c~d': 1 } })).to.equal('["a/b"]["c~d"]');
  });
});

describe('pathDepth', () => {
  it('counts the steps below the root', () => {
    expect(pathDepth('')).to.equal(0);
    expect(pathDepth('/filters/events/0')).to.equal(3);
  });
});
