import type { ErrorObject } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { InputName } from '../../core/ports/input-validator.js';
import { inputSchemas } from '../../spec/index.js';
import type { DiscriminatorTags } from './field-problems.js';
import { inlineRefs } from './inline-refs.js';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule.default;
const isUri = fullFormats.uri as (value: string) => boolean;
// ajv-formats' uri regex overflows the stack on strings of some megabytes (a RangeError, not a
// validation failure). Every URI of the contract has a far smaller maxLength, so longer strings fail
// here without reaching the regex.
const URI_CHECK_LIMIT = 65_536;

/** One compiled input schema: `validate` returns the problems, or none when the value fits. */
export type CompiledInput = {
  /** What to call the input itself in a message (`body must be an object`). */
  root: string;
  validate: (value: unknown) => readonly ErrorObject[] | undefined;
};

/** Every input schema of the contract, compiled once. */
export type CompiledContract = {
  inputs: Record<InputName, CompiledInput>;
  discriminatorTags: DiscriminatorTags;
};

const ROOTS: Record<InputName, string> = {
  definition: 'body',
  'definition-update': 'body',
  enable: 'body',
  'bulk-enable': 'body',
  evaluate: 'body',
  'list-query': 'query',
  uuid: 'uuid',
  'deliveries-query': 'query',
  'delivery-id': 'id',
  'backfill-request': 'body',
  'backfill-id': 'id',
};

/**
 * Compile the contract. The spec's schemas are draft 2020-12 (the dialect of OpenAPI 3.1), so this
 * uses ajv's 2020 class. Query strings need type coercion and defaults, which must never touch a JSON
 * body (`"true"` is not `true` there), so the query schema gets an instance of its own.
 */
export function compileContract(): CompiledContract {
  const bodies = createAjv({});
  // ajv coerces "Infinity" and "1e400" to Infinity, and with strict numbers it then skips the
  // minimum and maximum checks of a non-finite number; without them, `maximum` rejects Infinity.
  const queries = createAjv({ coerceTypes: true, useDefaults: true, strictNumbers: false });
  const inputs = {} as Record<InputName, CompiledInput>;
  const discriminatorTags: DiscriminatorTags = new WeakMap();
  for (const name of Object.keys(ROOTS) as InputName[]) {
    const ajv = ROOTS[name] === 'query' ? queries : bodies;
    const schema = inlineRefs(inputSchemas[name]);
    collectDiscriminatorTags(schema, discriminatorTags);
    const validate = ajv.compile(schema);
    inputs[name] = {
      root: ROOTS[name],
      validate: (value) => (validate(value) ? undefined : (validate.errors ?? [])),
    };
  }
  return { inputs, discriminatorTags };
}

function createAjv(options: {
  coerceTypes?: boolean;
  useDefaults?: boolean;
  strictNumbers?: boolean;
}): Ajv2020 {
  const ajv = new Ajv2020({
    ...options,
    allErrors: true,
    // parentSchema on each error lets a message use the failing schema's `x-message`.
    verbose: true,
    discriminator: true,
    strict: true,
    // `integer | string` (an NFT id) and `object | null` (options) are plain JSON Schema unions.
    allowUnionTypes: true,
  });
  addFormats(ajv);
  ajv.addFormat('uri', (value: string) => value.length <= URI_CHECK_LIMIT && isUri(value));
  // The human wording of a pattern's failure; an annotation only, it validates nothing.
  ajv.addKeyword({ keyword: 'x-message', schemaType: 'string' });
  return ajv;
}

/**
 * For each schema object with a discriminator, the tag values its `oneOf` branches accept, in order.
 * ajv reports an unknown tag without them; the message lists them so the user can pick one.
 */
function collectDiscriminatorTags(schema: unknown, tags: DiscriminatorTags): void {
  walk(schema, (node) => {
    const { discriminator, oneOf } = node;
    if (!isObject(discriminator) || !Array.isArray(oneOf)) return;
    const tagName = String(discriminator.propertyName);
    tags.set(
      node,
      oneOf.map((branch) => {
        const value =
          isObject(branch) && isObject(branch.properties) ? branch.properties[tagName] : undefined;
        if (!isObject(value) || typeof value.const !== 'string') {
          throw new Error(`a oneOf branch of a discriminator has no const "${tagName}"`);
        }
        return value.const;
      }),
    );
  });
}

function walk(node: unknown, visit: (node: Record<string, unknown>) => void): void {
  if (Array.isArray(node)) node.forEach((item) => walk(item, visit));
  else if (isObject(node)) {
    visit(node);
    Object.values(node).forEach((item) => walk(item, visit));
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
