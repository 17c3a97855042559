import { expect } from 'chai';
import { createAjvInputValidator } from '../../../adapters/contract-ajv/index.js';
import { UUID } from './examples.js';
import { expectFirstProblem, validationErrorOf } from './expect-invalid.js';

const validator = createAjvInputValidator();

describe("AjvInputValidator.check('enable')", () => {
  it('accepts {enabled: true} and {enabled: false}', () => {
    expect(validator.check('enable', { enabled: true })).to.deep.equal({ enabled: true });
    expect(validator.check('enable', { enabled: false })).to.deep.equal({ enabled: false });
  });

  it('requires enabled', () => {
    expectFirstProblem(() => validator.check('enable', {}), 'enabled', 'is required');
  });

  it('does not read the string "true" as a boolean', () => {
    expectFirstProblem(() => validator.check('enable', { enabled: 'true' }), 'enabled', 'must be a boolean');
  });

  it('rejects any other property, naming it', () => {
    expectFirstProblem(
      () => validator.check('enable', { enabled: true, force: true }),
      'force',
      'is not allowed',
    );
  });
});

describe("AjvInputValidator.check('bulk-enable')", () => {
  const bulk = (value: unknown) => () => validator.check('bulk-enable', value);

  it('accepts every filter together', () => {
    const body = {
      enabled: true,
      filters: {
        uuids: [UUID],
        webhook_url: 'https://example.com/x',
        statuses: ['new', 'streaming', 'expired', 'interrupted'],
      },
    };
    expect(validator.check('bulk-enable', body)).to.deep.equal(body);
  });

  it('accepts a body without filters', () => {
    expect(() => validator.check('bulk-enable', { enabled: false })).not.to.throw();
  });

  it('requires at least one filter when filters is given', () => {
    expectFirstProblem(
      bulk({ enabled: true, filters: {} }),
      'filters',
      'must have at least one of: uuids, webhook_url, statuses',
    );
  });

  it('rejects an unknown filter, naming it', () => {
    expectFirstProblem(bulk({ enabled: true, filters: { name: 'x' } }), 'filters.name', 'is not allowed');
  });

  it('rejects an unknown top-level property, naming it', () => {
    expectFirstProblem(bulk({ enabled: true, uuids: [UUID] }), 'uuids', 'is not allowed');
  });

  it('accepts 200 uuids and rejects 201', () => {
    const uuids = (n: number) =>
      Array.from({ length: n }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    expect(() =>
      validator.check('bulk-enable', { enabled: true, filters: { uuids: uuids(200) } }),
    ).not.to.throw();
    expectFirstProblem(
      bulk({ enabled: true, filters: { uuids: uuids(201) } }),
      'filters.uuids',
      'must have at most 200 items',
    );
  });

  it('rejects an empty uuid list', () => {
    expectFirstProblem(
      bulk({ enabled: true, filters: { uuids: [] } }),
      'filters.uuids',
      'must have at least 1 item',
    );
  });

  it('rejects a repeated uuid', () => {
    expectFirstProblem(
      bulk({ enabled: true, filters: { uuids: [UUID, UUID] } }),
      'filters.uuids',
      'must not repeat an item (items 0 and 1 are equal)',
    );
  });

  it('rejects a malformed uuid, naming its index', () => {
    expectFirstProblem(
      bulk({ enabled: true, filters: { uuids: [UUID, 'nope'] } }),
      'filters.uuids[1]',
      'must be a UUID (8-4-4-4-12 hex digits)',
    );
  });

  it('rejects an unknown status', () => {
    expectFirstProblem(
      bulk({ enabled: true, filters: { statuses: ['active'] } }),
      'filters.statuses[0]',
      'must be one of: new, streaming, expired, interrupted',
    );
  });

  it('rejects a repeated status and an empty status list', () => {
    expectFirstProblem(
      bulk({ enabled: true, filters: { statuses: ['new', 'new'] } }),
      'filters.statuses',
      'must not repeat an item (items 0 and 1 are equal)',
    );
    expectFirstProblem(
      bulk({ enabled: true, filters: { statuses: [] } }),
      'filters.statuses',
      'must have at least 1 item',
    );
  });

  it('rejects a webhook_url that is not a URI', () => {
    expectFirstProblem(
      bulk({ enabled: true, filters: { webhook_url: 'not a url' } }),
      'filters.webhook_url',
      'must be a valid absolute URI',
    );
  });

  it('requires enabled', () => {
    expectFirstProblem(bulk({ filters: { statuses: ['new'] } }), 'enabled', 'is required');
  });
});

describe("AjvInputValidator.check('evaluate')", () => {
  const HASH = 'ab'.repeat(32);
  const evaluate = (value: unknown) => () => validator.check('evaluate', value);

  it('accepts a block height, a hash with or without 0x, or both', () => {
    for (const body of [
      { block_height: 0 },
      { index_block_hash: HASH },
      { index_block_hash: `0x${HASH.toUpperCase()}` },
      { block_height: 5, index_block_hash: HASH },
    ]) {
      expect(validator.check('evaluate', body)).to.deep.equal(body);
    }
  });

  it('requires a block height or a hash', () => {
    expectFirstProblem(evaluate({}), 'body', 'must have at least one of: block_height, index_block_hash');
  });

  it('rejects a negative or fractional block height', () => {
    expectFirstProblem(evaluate({ block_height: -1 }), 'block_height', 'must be an integer >= 0');
    expectFirstProblem(evaluate({ block_height: 1.5 }), 'block_height', 'must be an integer >= 0');
  });

  it('rejects a hash that is not 64 hex digits', () => {
    for (const hash of ['0x12', `${HASH}00`, `0x${'g'.repeat(64)}`, `0X${HASH}`]) {
      expectFirstProblem(
        evaluate({ index_block_hash: hash }),
        'index_block_hash',
        'must be 64 hex digits, optionally prefixed with 0x',
      );
    }
  });

  it('rejects an unknown property, naming it', () => {
    expectFirstProblem(evaluate({ block_height: 1, txid: 'x' }), 'txid', 'is not allowed');
  });
});

describe("AjvInputValidator.check('list-query')", () => {
  const list = (value: unknown) => () => validator.check('list-query', value);
  const LIMIT = 'must be an integer between 1 and 60';

  it('defaults to offset 0 and limit 20', () => {
    expect(validator.check('list-query', {})).to.deep.equal({ offset: 0, limit: 20 });
  });

  it('reads numeric strings as numbers', () => {
    expect(validator.check('list-query', { offset: '40', limit: '60' })).to.deep.equal({
      offset: 40,
      limit: 60,
    });
    expect(validator.check('list-query', { limit: '1' })).to.deep.equal({ offset: 0, limit: 1 });
  });

  it('ignores unknown query parameters', () => {
    expect(validator.check('list-query', { limit: '5', sort: 'desc', page: ['1', '2'] })).to.deep.equal({
      offset: 0,
      limit: 5,
    });
  });

  it('accepts a query object without a prototype, as Node parses it', () => {
    const query = Object.assign(Object.create(null) as object, { offset: '3' });
    expect(validator.check('list-query', query)).to.deep.equal({ offset: 3, limit: 20 });
  });

  it('reads the name, status and enabled filters when given, and leaves absent ones out', () => {
    expect(
      validator.check('list-query', { name: 'sBTC', status: 'streaming', enabled: 'false' }),
    ).to.deep.equal({ offset: 0, limit: 20, name: 'sBTC', status: 'streaming', enabled: false });
    expect(validator.check('list-query', { enabled: 'true' })).to.deep.equal({
      offset: 0,
      limit: 20,
      enabled: true,
    });
  });

  it('rejects an unknown status filter, naming the field', () => {
    expectFirstProblem(
      list({ status: 'paused' }),
      'status',
      'must be one of: new, streaming, expired, interrupted',
    );
  });

  it('rejects an enabled filter that is not true or false', () => {
    expectFirstProblem(list({ enabled: 'yes' }), 'enabled', 'must be a boolean');
  });

  it('rejects a name filter given twice', () => {
    expectFirstProblem(list({ name: ['a', 'b'] }), 'name', 'must be a string');
  });

  it('leaves the caller query object as it was', () => {
    const query = { limit: '5' };
    validator.check('list-query', query);
    expect(query).to.deep.equal({ limit: '5' });
  });

  for (const limit of ['abc', '-1', '1.5', '61', '0', '', 'Infinity']) {
    it(`rejects limit=${limit}`, () => {
      expectFirstProblem(list({ limit }), 'limit', LIMIT);
    });
  }

  it('rejects a repeated limit parameter', () => {
    expectFirstProblem(list({ limit: ['1', '2'] }), 'limit', LIMIT);
  });

  for (const offset of ['-1', 'x', '2.5', '1e400']) {
    it(`rejects offset=${offset}`, () => {
      expectFirstProblem(list({ offset }), 'offset', 'must be an integer >= 0');
    });
  }

  it('names both parameters when both are wrong', () => {
    const err = validationErrorOf(list({ offset: 'a', limit: 'b' }));
    expect(err.details.map((d) => d.field)).to.deep.equal(['offset', 'limit']);
  });

  it('calls a query that is not an object the query', () => {
    expectFirstProblem(list('limit=5'), 'query', 'must be an object');
  });
});

describe("AjvInputValidator.check('uuid')", () => {
  const uuid = (value: unknown) => () => validator.check('uuid', value);

  it('accepts lowercase and uppercase hex', () => {
    expect(validator.check('uuid', UUID)).to.equal(UUID);
    expect(validator.check('uuid', UUID.toUpperCase())).to.equal(UUID.toUpperCase());
  });

  for (const value of [
    'nope',
    `urn:uuid:${UUID}`,
    `${UUID}0`,
    UUID.replace(/-/g, ''),
    ` ${UUID}`,
    `{${UUID}}`,
  ]) {
    it(`rejects ${JSON.stringify(value)}`, () => {
      const details = expectFirstProblem(uuid(value), 'uuid', 'must be a UUID (8-4-4-4-12 hex digits)');
      expect(details).to.have.length(1);
    });
  }

  it('rejects a value that is not a string', () => {
    expectFirstProblem(uuid(42), 'uuid', 'must be a UUID (8-4-4-4-12 hex digits)');
  });
});
