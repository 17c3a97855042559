import {
  ApiStatusResponseSchema,
  BulkEnableChainhooksResponseSchema,
  ChainhookSchema,
  ConsumerSecretResponseSchema,
  PaginatedChainhookResponseSchema,
} from '@hirosystems/chainhooks-client';
import { FormatRegistry, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { expect } from 'chai';

// TypeBox checks formats only when they are registered; these match the client package's intent.
FormatRegistry.Set('uuid', (v) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(v),
);
FormatRegistry.Set('uri', (v) => URL.canParse(v));
FormatRegistry.Set('hex', (v) => /^(0x)?[0-9a-f]*$/i.test(v));

/**
 * Assert a response validates against one of the official client's TypeBox schemas. The client's
 * declarations come from typebox's CommonJS build and ours from its ESM build, so the schema is
 * taken as a plain object (the runtime symbols are shared through Symbol.for).
 */
export function expectSchema(schema: object, value: unknown): void {
  const errors = [...Value.Errors(schema as TSchema, value)].map((e) => `${e.path} ${e.message}`);
  expect(errors, JSON.stringify(value)).to.deep.equal([]);
}

export const schemas = {
  hook: ChainhookSchema,
  page: PaginatedChainhookResponseSchema,
  bulk: BulkEnableChainhooksResponseSchema,
  secret: ConsumerSecretResponseSchema,
  status: ApiStatusResponseSchema,
};
