import { injectable } from 'inversify';
import { invalidInput } from '../../core/hooks/errors.js';
import type { InputName, InputShapes, InputValidator } from '../../core/ports/input-validator.js';
import { compileContract, type CompiledContract } from './compile-contract.js';
import { fieldProblems } from './field-problems.js';

/** The `InputValidator` port backed by ajv and the JSON Schemas of `spec/`, compiled once at construction. */
@injectable()
export class AjvInputValidator implements InputValidator {
  readonly #contract: CompiledContract = compileContract();

  /** Check `value` against the named schema; a `validation` StackhooksError names every wrong field. */
  check<K extends InputName>(name: K, value: unknown): InputShapes[K] {
    if (!Object.hasOwn(this.#contract.inputs, name)) throw new Error(`no input schema named ${String(name)}`);
    const input = this.#contract.inputs[name];
    // Coercion and defaults write into the query object; the caller's object stays as it was.
    const isQuery = name === 'list-query' || name === 'deliveries-query';
    const subject = isQuery && isPlainObject(value) ? { ...value } : value;
    if (isQuery && isPlainObject(subject)) refuseLooseCounts(subject);
    const errors = input.validate(subject);
    if (errors !== undefined) {
      throw invalidInput(fieldProblems(errors, subject, input.root, this.#contract.discriminatorTags));
    }
    if (name === 'list-query') {
      const { offset, limit, name: text, status, enabled } = subject as InputShapes['list-query'];
      const filters = Object.entries({ name: text, status, enabled }).filter(([, v]) => v !== undefined);
      return { offset, limit, ...Object.fromEntries(filters) } as InputShapes[K];
    }
    if (name === 'deliveries-query') {
      const { state, offset, limit } = subject as InputShapes['deliveries-query'];
      return (state === undefined ? { offset, limit } : { state, offset, limit }) as InputShapes[K];
    }
    return subject as InputShapes[K];
  }
}

/** A validator ready to use, for callers that do not go through the Inversify container. */
export function createAjvInputValidator(): AjvInputValidator {
  return new AjvInputValidator();
}

// Coercion would read `1e1` as 10, `0x10` as 16 and a blank as 0: a count in a query is digits
// only. Anything else is made a value no integer coerces from, so the schema refuses it with the
// field's own message.
function refuseLooseCounts(query: Record<string, unknown>): void {
  for (const field of ['offset', 'limit']) {
    const value = query[field];
    if (typeof value === 'string' && !/^\d+$/.test(value)) query[field] = 'not digits';
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
