/** The JSON Schemas of the contract, loaded once at module load. */
import backfillId from './backfill-id.json' with { type: 'json' };
import backfillRequest from './backfill-request.json' with { type: 'json' };
import bulkEnable from './bulk-enable.json' with { type: 'json' };
import common from './common.json' with { type: 'json' };
import definitionUpdate from './definition-update.json' with { type: 'json' };
import deliveriesQuery from './deliveries-query.json' with { type: 'json' };
import deliveryId from './delivery-id.json' with { type: 'json' };
import definition from './definition.json' with { type: 'json' };
import enable from './enable.json' with { type: 'json' };
import evaluate from './evaluate.json' with { type: 'json' };
import listQuery from './list-query.json' with { type: 'json' };
import responses from './responses.json' with { type: 'json' };
import uuid from './uuid.json' with { type: 'json' };

/** A JSON Schema document of the contract; every one has an `$id` under {@link SCHEMA_BASE_URI}. */
export type JsonSchemaDocument = { readonly $id: string; readonly [keyword: string]: unknown };

/** The names of the API inputs, one schema each. */
export type InputSchemaName =
  | 'definition'
  | 'definition-update'
  | 'enable'
  | 'bulk-enable'
  | 'evaluate'
  | 'list-query'
  | 'uuid'
  | 'deliveries-query'
  | 'delivery-id'
  | 'backfill-request'
  | 'backfill-id';

/** Where the schemas' `$id`s live (an identifier, never fetched); `$ref`s between files are relative to it. */
export const SCHEMA_BASE_URI = 'https://stackhooks.invalid/schemas/';

/** One JSON Schema per API input, by input name. */
export const inputSchemas: Readonly<Record<InputSchemaName, JsonSchemaDocument>> = {
  definition,
  'definition-update': definitionUpdate,
  enable,
  'bulk-enable': bulkEnable,
  evaluate,
  'list-query': listQuery,
  uuid,
  'deliveries-query': deliveriesQuery,
  'delivery-id': deliveryId,
  'backfill-request': backfillRequest,
  'backfill-id': backfillId,
};

/** The shared definitions: identifier patterns, the 18 filters, the parts of a definition. */
export const commonSchema: JsonSchemaDocument = common;

/** The response bodies (hook record, list page, error body, ...) as `$defs`. */
export const responseSchemas: JsonSchemaDocument = responses;

/** Every schema document, so a validator can register them all before compiling any one. */
export const schemaDocuments: readonly JsonSchemaDocument[] = [
  commonSchema,
  responseSchemas,
  ...Object.values(inputSchemas),
];
