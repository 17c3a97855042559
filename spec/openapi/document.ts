import { backfillPaths } from './backfill-paths.js';
import { ERROR_RESPONSES, apiPaths } from './paths.js';
import { componentRef, schemaComponents, type Json } from './schema-components.js';

/** An optional query parameter whose schema is a property of the query's schema. */
function queryParameter(query: 'ListQuery' | 'DeliveriesQuery', name: string): Json {
  return {
    name,
    in: 'query',
    required: false,
    schema: { $ref: `#/components/schemas/${query}/properties/${name}` },
  };
}

/** The OpenAPI 3.1 document of the API, built from the schema files; `generate.ts` writes it to `spec/openapi.json`. */
export function buildOpenApiDocument(): Record<string, Json> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'stackhooks API',
      version: '1',
      summary: "Stacks blockchain event hooks, compatible with Hiro's Chainhooks API.",
      description:
        'Register hooks (event filters plus an `http_post` target); matching transactions are delivered as signed, ordered, retried webhooks. Every route is served under both server prefixes, with and without a trailing slash on collections.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [
      { url: '/chainhooks/v1', description: 'The documented prefix.' },
      {
        url: '/chainhooks',
        description: 'The prefix the npm client (`@hirosystems/chainhooks-client`) calls.',
      },
    ],
    tags: [
      { name: 'status', description: 'Service status and this document; no key needed.' },
      { name: 'hooks', description: "The owner's hooks." },
      { name: 'secret', description: 'The consumer secret that signs deliveries.' },
      { name: 'deliveries', description: "A hook's delivery log (beyond Hiro's API)." },
      {
        name: 'backfills',
        description: "A hook evaluated over a range of archived blocks (beyond Hiro's API).",
      },
    ],
    paths: { ...apiPaths(), ...backfillPaths() },
    components: {
      schemas: schemaComponents(),
      parameters: {
        HookUuid: {
          name: 'uuid',
          in: 'path',
          required: true,
          description: "The hook's uuid.",
          schema: componentRef('Uuid'),
        },
        Offset: queryParameter('ListQuery', 'offset'),
        NameContains: queryParameter('ListQuery', 'name'),
        HookStatus: queryParameter('ListQuery', 'status'),
        Enabled: queryParameter('ListQuery', 'enabled'),
        DeliveryState: queryParameter('DeliveriesQuery', 'state'),
        DeliveryOffset: queryParameter('DeliveriesQuery', 'offset'),
        DeliveryLimit: queryParameter('DeliveriesQuery', 'limit'),
        DeliveryId: {
          name: 'id',
          in: 'path',
          required: true,
          description: "The payload's id (its `webhook-id`).",
          schema: componentRef('DeliveryId'),
        },
        Limit: queryParameter('ListQuery', 'limit'),
        BackfillId: {
          name: 'id',
          in: 'path',
          required: true,
          description: "The backfill's id.",
          schema: componentRef('BackfillId'),
        },
      },
      headers: {
        RetryAfter: {
          description: 'Seconds to wait before retrying.',
          schema: { type: 'integer', minimum: 0 },
        },
      },
      responses: Object.fromEntries(
        Object.values(ERROR_RESPONSES).map(({ name, description }) => [
          name,
          {
            description,
            ...(name === 'TooManyRequests'
              ? { headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } }
              : {}),
            content: { 'application/json': { schema: componentRef('ErrorBody') } },
          },
        ]),
      ),
      securitySchemes: {
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'x-api-key',
          description: 'The key of the owner; `/me` is that owner.',
        },
      },
    },
  };
}
