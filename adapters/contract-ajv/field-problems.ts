import type { ErrorObject } from 'ajv';
import type { FieldProblem } from '../../core/hooks/errors.js';
import { fieldPath, pathDepth } from './field-path.js';

/** The values each discriminator accepts, keyed by the schema object that carries the discriminator. */
export type DiscriminatorTags = WeakMap<object, readonly string[]>;

type SchemaObject = Record<string, unknown>;

// A response naming every problem of a body with 100,000 unknown keys would dwarf the body itself.
const MAX_PROBLEMS = 100;
const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

/**
 * Turn ajv errors (compiled with `allErrors` and `verbose`) into problems a user can act on, the most
 * useful first: a wrong filter `type`, then the deepest field. `root` names the input itself.
 */
export function fieldProblems(
  errors: readonly ErrorObject[],
  data: unknown,
  root: string,
  tags: DiscriminatorTags,
): FieldProblem[] {
  // A value of the wrong type also fails its const, enum, ...: the type error alone says it.
  const wrongType = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  // Ranked before describing: describing all of 100,000 errors would cost more than validating.
  const ranked = errors
    .filter((e) => e.keyword === 'type' || !wrongType.has(e.instancePath))
    .map((error, index) => ({ error, rank: rankOf(error), index }))
    .sort((a, b) => b.rank - a.rank || a.index - b.index);

  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  for (const { error } of ranked) {
    const problem = describeError(error, data, root, tags);
    const key = `${problem.field}\u0000${problem.message}`;
    if (seen.has(key)) continue;
    if (problems.length === MAX_PROBLEMS - 1) {
      problems.push({ field: root, message: `has more problems; the first ${MAX_PROBLEMS - 1} are listed` });
      break;
    }
    seen.add(key);
    problems.push(problem);
  }
  return problems;
}

// A wrong filter `type` first (a filter of an unknown type has no other problem worth reading),
// then the deepest field: the deeper the path, the more specific the problem.
function rankOf(error: ErrorObject): number {
  if (error.keyword === 'discriminator') return Number.MAX_SAFE_INTEGER;
  const names = error.keyword === 'required' || error.keyword === 'additionalProperties' ? 1 : 0;
  return pathDepth(error.instancePath) + names;
}

function describeError(
  error: ErrorObject,
  data: unknown,
  root: string,
  tags: DiscriminatorTags,
): FieldProblem {
  const params = error.params as Record<string, unknown>;
  const at = (property?: string) => fieldPath(root, error.instancePath, data, property);
  switch (error.keyword) {
    case 'required':
      return { field: at(String(params.missingProperty)), message: 'is required' };
    case 'additionalProperties':
      return { field: at(String(params.additionalProperty)), message: 'is not allowed' };
    case 'discriminator': {
      const allowed = (tags.get(error.parentSchema as object) ?? []).join(', ');
      const message =
        params.tagValue === undefined ? `is required, one of: ${allowed}` : `must be one of: ${allowed}`;
      return { field: at(String(params.tag)), message };
    }
    default: {
      const schema = (error.parentSchema ?? {}) as SchemaObject;
      const hint = schema['x-message'];
      return {
        field: at(),
        message: typeof hint === 'string' ? hint : keywordMessage(error, params, schema),
      };
    }
  }
}

function keywordMessage(error: ErrorObject, params: Record<string, unknown>, schema: SchemaObject): string {
  switch (error.keyword) {
    case 'type':
      // `version: 1` is better told `must be "1"` than `must be a string`.
      if ('const' in schema) return `must be ${JSON.stringify(schema.const)}`;
      if (Array.isArray(schema.enum)) return `must be one of: ${schema.enum.join(', ')}`;
      return isNumeric(schema) ? rangeMessage(schema) : `must be ${typeNames(String(params.type))}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
    case 'multipleOf':
      return rangeMessage(schema);
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case 'enum':
      return `must be one of: ${(params.allowedValues as unknown[]).join(', ')}`;
    case 'minLength':
      return params.limit === 1 ? 'must not be empty' : `must be at least ${params.limit} characters long`;
    case 'maxLength':
      return `must be at most ${params.limit} characters long`;
    case 'pattern':
      return `must match the pattern ${params.pattern}`;
    case 'format':
      return `must be a valid ${params.format === 'uri' ? 'absolute URI' : params.format}`;
    case 'minItems':
      return `must have at least ${params.limit} ${params.limit === 1 ? 'item' : 'items'}`;
    case 'maxItems':
      return `must have at most ${params.limit} items`;
    case 'uniqueItems':
      return `must not repeat an item (items ${Math.min(Number(params.i), Number(params.j))} and ${Math.max(Number(params.i), Number(params.j))} are equal)`;
    case 'minProperties':
      return minPropertiesMessage(Number(params.limit), schema);
    default:
      return error.message ?? 'is invalid';
  }
}

function minPropertiesMessage(limit: number, schema: SchemaObject): string {
  const known = Object.keys((schema.properties ?? {}) as SchemaObject);
  if (limit === 1 && known.length > 0 && schema.additionalProperties === false) {
    return `must have at least one of: ${known.join(', ')}`;
  }
  return `must have at least ${limit} ${limit === 1 ? 'property' : 'properties'}`;
}

function schemaTypes(schema: SchemaObject): string[] {
  const { type } = schema;
  return Array.isArray(type) ? type.map(String) : typeof type === 'string' ? [type] : [];
}

function isNumeric(schema: SchemaObject): boolean {
  const types = schemaTypes(schema);
  return types.length > 0 && types.every((t) => t === 'integer' || t === 'number');
}

function rangeMessage(schema: SchemaObject): string {
  const kind = schemaTypes(schema).includes('integer') ? 'an integer' : 'a number';
  const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  // A maximum at the edge of exact integers only guards precision; it is no limit worth stating.
  const max =
    typeof schema.maximum === 'number' && schema.maximum < Number.MAX_SAFE_INTEGER
      ? schema.maximum
      : undefined;
  if (min !== undefined && max !== undefined) return `must be ${kind} between ${min} and ${max}`;
  if (min !== undefined) return `must be ${kind} >= ${min}`;
  if (max !== undefined) return `must be ${kind} <= ${max}`;
  return `must be ${kind}`;
}

function typeNames(types: string): string {
  return types
    .split(',')
    .map((t) => TYPE_NAMES[t] ?? t)
    .join(' or ');
}
