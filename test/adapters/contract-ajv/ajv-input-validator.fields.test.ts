import { expect } from 'chai';
import { createAjvInputValidator } from '../../../adapters/contract-ajv/index.js';
import { definitionWith, definitionWithFilter } from './examples.js';
import { expectFirstProblem, validationErrorOf } from './expect-invalid.js';

const validator = createAjvInputValidator();
const check = (value: unknown) => () => validator.check('definition', value);

describe("AjvInputValidator.check('definition'): top-level fields and action", () => {
  describe('top-level fields', () => {
    it('says a body that is not an object must be one', () => {
      for (const body of [undefined, null, [], 'x', 1])
        expectFirstProblem(check(body), 'body', 'must be an object');
    });

    it('lists every missing field, in schema order', () => {
      const details = validationErrorOf(check({})).details;
      expect(details.map((d) => `${d.field} ${d.message}`)).to.deep.equal([
        'name is required',
        'version is required',
        'chain is required',
        'network is required',
        'filters is required',
        'action is required',
      ]);
    });

    it('says a name must be a string', () => {
      expectFirstProblem(check(definitionWith({ name: 5 })), 'name', 'must be a string');
    });

    it('rejects a name longer than 256 characters', () => {
      expectFirstProblem(
        check(definitionWith({ name: 'n'.repeat(257) })),
        'name',
        'must be at most 256 characters long',
      );
    });

    it('rejects a function_name longer than 128 characters', () => {
      expectFirstProblem(
        check(definitionWithFilter({ type: 'contract_call', function_name: 'f'.repeat(129) })),
        'filters.events[0].function_name',
        'must be at most 128 characters long',
      );
    });

    it('requires version "1"', () => {
      expectFirstProblem(check(definitionWith({ version: '2' })), 'version', 'must be "1"');
      expectFirstProblem(check(definitionWith({ version: 1 })), 'version', 'must be "1"');
    });

    it('requires chain "stacks"', () => {
      expectFirstProblem(check(definitionWith({ chain: 'bitcoin' })), 'chain', 'must be "stacks"');
    });

    it('requires network mainnet or testnet', () => {
      expectFirstProblem(
        check(definitionWith({ network: 'devnet' })),
        'network',
        'must be one of: mainnet, testnet',
      );
    });

    it('requires at least one filter', () => {
      expectFirstProblem(
        check(definitionWith({ filters: { events: [] } })),
        'filters.events',
        'must have at least 1 item',
      );
    });

    it('accepts 200 filters and rejects 201', () => {
      const events = (n: number) => Array.from({ length: n }, () => ({ type: 'coinbase' }));
      expect(() =>
        validator.check('definition', definitionWith({ filters: { events: events(200) } })),
      ).not.to.throw();
      expectFirstProblem(
        check(definitionWith({ filters: { events: events(201) } })),
        'filters.events',
        'must have at most 200 items',
      );
    });

    it('says options must be an object or null', () => {
      expectFirstProblem(check(definitionWith({ options: [] })), 'options', 'must be an object or null');
    });

    it('rejects an expiry limit of 0, which would expire the hook at birth', () => {
      expectFirstProblem(
        check(definitionWith({ options: { expire_after_occurrences: 0 } })),
        'options.expire_after_occurrences',
        'must be an integer >= 1',
      );
    });

    it('rejects a fractional expiry limit', () => {
      expectFirstProblem(
        check(definitionWith({ options: { expire_after_evaluations: 2.5 } })),
        'options.expire_after_evaluations',
        'must be an integer >= 1',
      );
    });

    it('says a boolean option must be a boolean', () => {
      expectFirstProblem(
        check(definitionWith({ options: { decode_clarity_values: 'true' } })),
        'options.decode_clarity_values',
        'must be a boolean',
      );
    });
  });

  describe('action', () => {
    const URL_MESSAGE = 'must be an absolute http:// or https:// URL of at most 2048 characters';
    for (const url of [
      'http://localhost:3000/hook',
      'https://example.com/a?b=c#d',
      'HTTPS://EXAMPLE.COM',
      'http://[::1]:8080/x',
    ]) {
      it(`accepts ${url}`, () => {
        expect(() =>
          validator.check('definition', definitionWith({ action: { type: 'http_post', url } })),
        ).not.to.throw();
      });
    }
    for (const url of [
      'ftp://example.com/x',
      'example.com/hook',
      '/relative',
      'http://',
      'https://exa mple.com',
      `https://e.com/${'a'.repeat(2048)}`,
    ]) {
      it(`rejects ${url.slice(0, 30)}`, () => {
        expectFirstProblem(
          check(definitionWith({ action: { type: 'http_post', url } })),
          'action.url',
          URL_MESSAGE,
        );
      });
    }

    it('requires type http_post', () => {
      expectFirstProblem(
        check(definitionWith({ action: { type: 'webhook', url: 'https://e.com' } })),
        'action.type',
        'must be "http_post"',
      );
    });
  });

  it('does not echo a huge unknown key in full', () => {
    const key = 'k'.repeat(10_000);
    const err = validationErrorOf(check(definitionWith({ [key]: 1 })));
    expect(err.message.length).to.be.below(100);
  });

  it('lists at most 100 problems, saying there are more', () => {
    const extra = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, i]));
    const details = validationErrorOf(check(definitionWith(extra))).details;
    expect(details).to.have.length(100);
    expect(details[99]).to.deep.equal({
      field: 'body',
      message: 'has more problems; the first 99 are listed',
    });
  });
});
