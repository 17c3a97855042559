import { expect } from 'chai';
import fc from 'fast-check';
import { createAjvInputValidator } from '../../../adapters/contract-ajv/index.js';
import { StackhooksError } from '../../../core/hooks/errors.js';
import type { InputName } from '../../../core/ports/input-validator.js';
import { FILTER_OF_EACH_TYPE, definitionWith } from './examples.js';

const validator = createAjvInputValidator();
const INPUTS: InputName[] = [
  'definition',
  'definition-update',
  'enable',
  'bulk-enable',
  'evaluate',
  'list-query',
  'uuid',
];

/** Passes when `check` returns, or throws a validation error whose message and details are usable. */
function acceptsOrExplains(name: InputName, value: unknown): void {
  try {
    validator.check(name, value);
  } catch (err) {
    if (!(err instanceof StackhooksError)) throw err;
    expect(err.code).to.equal('validation');
    expect(err.message).to.be.a('string').with.length.above(0);
    expect(err.details).to.be.an('array').with.length.above(0);
    for (const { field, message } of err.details) {
      expect(field).to.be.a('string').with.length.above(0);
      expect(message).to.be.a('string').with.length.above(0);
    }
    expect(err.message).to.equal(`${err.details[0].field} ${err.details[0].message}`);
  }
}

// A place in a valid definition where a random value goes; covers every level of the shape.
const DEFINITION_PATHS: string[][] = [
  [],
  ['name'],
  ['version'],
  ['chain'],
  ['network'],
  ['filters'],
  ['filters', 'events'],
  ['filters', 'events', '0'],
  ['filters', 'events', '0', 'type'],
  ['filters', 'events', '0', 'asset_identifier'],
  ['filters', 'events', '0', 'extra'],
  ['options'],
  ['options', 'expire_after_evaluations'],
  ['options', 'decode_clarity_values'],
  ['options', 'unknown'],
  ['action'],
  ['action', 'url'],
  ['action', 'type'],
];

function replaceAt(root: unknown, path: string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [key, ...rest] = path;
  const node = (typeof root === 'object' && root !== null ? root : {}) as Record<string, unknown>;
  const copy: Record<string, unknown> | unknown[] = Array.isArray(node) ? [...node] : { ...node };
  (copy as Record<string, unknown>)[key] = replaceAt(node[key], rest, value);
  return copy;
}

describe('AjvInputValidator.check (properties)', () => {
  it('never throws anything but a validation error with a message, whatever JSON arrives', () => {
    fc.assert(
      fc.property(fc.constantFrom(...INPUTS), fc.jsonValue(), (name, value) =>
        acceptsOrExplains(name, value),
      ),
      { numRuns: 2000 },
    );
  });

  it('never throws anything but a validation error for any JS value, including prototype-less objects', () => {
    const anything = fc.anything({
      withNullPrototype: true,
      withSparseArray: true,
      withBigInt: true,
      withDate: true,
      withMap: true,
    });
    fc.assert(
      fc.property(fc.constantFrom(...INPUTS), anything, (name, value) => acceptsOrExplains(name, value)),
      { numRuns: 1000 },
    );
  });

  it('explains or accepts a valid definition with any one part replaced by random JSON', () => {
    fc.assert(
      fc.property(fc.constantFrom(...DEFINITION_PATHS), fc.jsonValue(), (path, value) => {
        acceptsOrExplains('definition', replaceAt(definitionWith(), path, value));
        acceptsOrExplains('definition-update', replaceAt({ filters: definitionWith().filters }, path, value));
      }),
      { numRuns: 2000 },
    );
  });

  it('explains or accepts filters of any type with random extra fields', () => {
    const filter = fc.tuple(
      fc.constantFrom(...FILTER_OF_EACH_TYPE, { type: 'unknown' }, {}),
      fc.dictionary(
        fc.constantFrom('type', 'sender', 'receiver', 'value', 'principal', 'cause', 'x'),
        fc.jsonValue(),
      ),
    );
    fc.assert(
      fc.property(fc.array(filter, { maxLength: 5 }), (filters) => {
        const events = filters.map(([base, extra]) => ({ ...base, ...extra }));
        acceptsOrExplains('definition', definitionWith({ filters: { events } }));
      }),
      { numRuns: 1000 },
    );
  });

  it('reads any query of strings either as integers in range or as a validation error', () => {
    const value = fc.oneof(
      fc.string(),
      fc.nat().map(String),
      fc.integer().map(String),
      fc.array(fc.string(), { maxLength: 3 }),
    );
    const query = fc.dictionary(fc.constantFrom('offset', 'limit', 'other'), value);
    fc.assert(
      fc.property(query, (raw) => {
        acceptsOrExplains('list-query', raw);
        try {
          const { offset, limit } = validator.check('list-query', raw);
          expect(Number.isSafeInteger(offset) && offset >= 0).to.equal(true);
          expect(Number.isInteger(limit) && limit >= 1 && limit <= 60).to.equal(true);
        } catch (err) {
          if (!(err instanceof StackhooksError)) throw err;
        }
      }),
      { numRuns: 2000 },
    );
  });
});
