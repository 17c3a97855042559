import { componentRef, type Json } from './schema-components.js';

type Operation = { [field: string]: Json };

const API_KEY = [{ apiKey: [] }];

/** The error statuses of Hiro's Chainhooks API, each a shared response of the document. */
export const ERROR_RESPONSES: Record<number, { name: string; description: string }> = {
  400: {
    name: 'BadRequest',
    description: 'The JSON, body, query or uuid is invalid; `details` names every field.',
  },
  401: { name: 'Unauthorized', description: 'The `x-api-key` header is missing or unknown.' },
  403: { name: 'HookLimitReached', description: 'The owner already has as many hooks as allowed.' },
  404: {
    name: 'NotFound',
    description:
      'No such hook for this owner (or, for evaluate, no such block; for a backfill, no such backfill).',
  },
  409: {
    name: 'Conflict',
    description: 'The hook is expired: raise or remove its limit with `PATCH /me/{uuid}` first.',
  },
  413: { name: 'PayloadTooLarge', description: 'The body is larger than the limit.' },
  415: { name: 'UnsupportedMediaType', description: 'The body is not `application/json`.' },
  429: { name: 'TooManyRequests', description: 'Rate limit exceeded; retry after `Retry-After` seconds.' },
  500: { name: 'InternalError', description: 'A fault of the service (never bad input).' },
};

const errors = (...statuses: number[]): Record<string, Json> =>
  Object.fromEntries(
    statuses.map((status) => [
      String(status),
      { $ref: `#/components/responses/${ERROR_RESPONSES[status].name}` },
    ]),
  );

/** A JSON response of a component schema. */
export const jsonBody = (schema: string, description: string): Json => ({
  description,
  content: { 'application/json': { schema: componentRef(schema) } },
});

/** A required JSON request body of a component schema. */
export const requestBody = (schema: string): Json => ({
  required: true,
  content: { 'application/json': { schema: componentRef(schema) } },
});

const noContent = (description: string): Json => ({ description });

/** The hook uuid path parameter. */
export const uuidParam = { $ref: '#/components/parameters/HookUuid' };

/** A `/me` operation: keyed, rate limited, and able to fail. */
export function hookOperation(operation: Operation, ...statuses: number[]): Operation {
  const responses = operation.responses as Record<string, Json>;
  return {
    ...operation,
    security: API_KEY,
    responses: { ...responses, ...errors(401, ...statuses, 429, 500) },
  };
}

/** The probes, served at the root of the API's address (outside both prefixes), with no key. */
const ROOT = [{ url: '/', description: 'The root of the API’s address, outside the prefixes.' }];

/** Every route of Hiro's Chainhooks API, relative to either server prefix, and the probes at the root. */
export function apiPaths(): Record<string, Json> {
  return {
    '/health': {
      servers: ROOT,
      get: {
        operationId: 'getHealth',
        tags: ['status'],
        summary: 'The process answers (a liveness probe)',
        security: [],
        responses: { '200': jsonBody('Health', 'The process is up.') },
      },
    },
    '/ready': {
      servers: ROOT,
      get: {
        operationId: 'getReadiness',
        tags: ['status'],
        summary: 'The service should get traffic (a readiness probe)',
        description:
          'Ready when the stores answer, no condition is raised (an unreachable database, a full disk, no active ingest) and, in a process that processes blocks, a block came within `STACKHOOKS_READY_MAX_BLOCK_AGE`.',
        security: [],
        responses: {
          '200': jsonBody('Readiness', 'Ready: `reasons` is empty.'),
          '503': jsonBody('Readiness', 'Not ready: `reasons` says why.'),
          ...errors(500),
        },
      },
    },
    '/': {
      get: {
        operationId: 'getStatus',
        tags: ['status'],
        summary: 'The service is up',
        security: [],
        responses: { '200': jsonBody('ApiStatus', 'The service status.'), ...errors(500) },
      },
    },
    '/openapi.json': {
      get: {
        operationId: 'getOpenApiDocument',
        tags: ['status'],
        summary: 'This document',
        security: [],
        responses: {
          '200': {
            description: 'The OpenAPI document.',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
          ...errors(500),
        },
      },
    },
    '/me': {
      post: hookOperation(
        {
          operationId: 'registerChainhook',
          tags: ['hooks'],
          summary: 'Register a hook',
          description:
            "Created with `enabled = options.enable_on_registration === true` and status `new`. The `network` must be the deployment's.",
          requestBody: requestBody('HookDefinition'),
          responses: { '200': jsonBody('HookRecord', 'The new hook.') },
        },
        400,
        403,
        413,
        415,
      ),
      get: hookOperation(
        {
          operationId: 'getChainhooks',
          tags: ['hooks'],
          summary: "List the owner's hooks, oldest first",
          description:
            "`name`, `status` and `enabled` are stackhooks' own filters (the hosted API has none); `total` counts the hooks that pass them.",
          parameters: ['Offset', 'Limit', 'NameContains', 'HookStatus', 'Enabled'].map((name) => ({
            $ref: `#/components/parameters/${name}`,
          })),
          responses: { '200': jsonBody('HookList', 'One page of hooks.') },
        },
        400,
      ),
    },
    '/me/enabled': {
      patch: hookOperation(
        {
          operationId: 'bulkEnableChainhooks',
          tags: ['hooks'],
          summary: 'Enable or disable every hook matching all the filters',
          description: 'Expired hooks are skipped and are not listed in `updated_uuids`.',
          requestBody: requestBody('BulkEnableRequest'),
          responses: { '200': jsonBody('BulkEnableResult', 'The hooks that were updated.') },
        },
        400,
        413,
        415,
      ),
    },
    '/me/secret': {
      post: hookOperation({
        operationId: 'rotateConsumerSecret',
        tags: ['secret'],
        summary: 'Make a new consumer secret',
        description: 'A new random 32-byte secret as hex; the old one stops working at once.',
        responses: { '200': jsonBody('ConsumerSecret', 'The new secret.') },
      }),
      get: hookOperation({
        operationId: 'getConsumerSecret',
        tags: ['secret'],
        summary: 'Read the consumer secret',
        responses: { '200': jsonBody('ConsumerSecret', 'The secret, or null when there is none.') },
      }),
      delete: hookOperation({
        operationId: 'deleteConsumerSecret',
        tags: ['secret'],
        summary: 'Remove the consumer secret',
        description: 'Deliveries are sent unsigned from then on.',
        responses: { '204': noContent('The secret is removed.') },
      }),
    },
    '/me/{uuid}': {
      parameters: [uuidParam],
      get: hookOperation(
        {
          operationId: 'getChainhook',
          tags: ['hooks'],
          summary: 'Read a hook',
          responses: { '200': jsonBody('HookRecord', 'The hook.') },
        },
        400,
        404,
      ),
      patch: hookOperation(
        {
          operationId: 'updateChainhook',
          tags: ['hooks'],
          summary: 'Update a hook',
          description:
            'Each top-level field sent replaces the stored one whole (`filters.events` is replaced, not merged); the merged definition must be valid.',
          requestBody: requestBody('HookDefinitionUpdate'),
          responses: { '200': jsonBody('HookRecord', 'The updated hook.') },
        },
        400,
        404,
        413,
        415,
      ),
      delete: hookOperation(
        {
          operationId: 'deleteChainhook',
          tags: ['hooks'],
          summary: 'Delete a hook',
          description: 'Nothing more is delivered for it; its queued deliveries are dropped.',
          responses: { '204': noContent('The hook is deleted.') },
        },
        400,
        404,
      ),
    },
    '/me/{uuid}/enabled': {
      parameters: [uuidParam],
      patch: hookOperation(
        {
          operationId: 'enableChainhook',
          tags: ['hooks'],
          summary: 'Enable or disable a hook',
          requestBody: requestBody('EnableRequest'),
          responses: {
            '204': {
              description: 'The enabled flag is set.',
              headers: {
                'stackhooks-missed-from-block-height': {
                  description:
                    'Set when an interrupted hook is enabled from the tip: the first block it skips. `POST /me/{uuid}/backfills` with this `from_block_height` sends what it missed.',
                  schema: { type: 'integer', minimum: 0 },
                },
              },
            },
          },
        },
        400,
        404,
        409,
        413,
        415,
      ),
    },
    '/me/{uuid}/evaluate': {
      parameters: [uuidParam],
      post: hookOperation(
        {
          operationId: 'evaluateChainhook',
          tags: ['hooks'],
          summary: 'Evaluate a hook against one archived block',
          description:
            'Runs in the background, enabled or not; a match is delivered as `{apply: [block], rollback: []}` through the normal delivery path. Counters and status do not change.',
          requestBody: requestBody('EvaluateRequest'),
          responses: { '204': noContent('The evaluation is queued.') },
        },
        400,
        404,
        413,
        415,
      ),
    },
    '/me/{uuid}/deliveries': {
      parameters: [uuidParam],
      get: hookOperation(
        {
          operationId: 'listDeliveries',
          tags: ['deliveries'],
          summary: "List a hook's delivery log",
          description:
            'Every payload queued for the hook, newest first, with its state, block range and every attempt (time, status code or error, latency). Delivered and failed payloads are kept for the retention period.',
          parameters: [
            { $ref: '#/components/parameters/DeliveryState' },
            { $ref: '#/components/parameters/DeliveryOffset' },
            { $ref: '#/components/parameters/DeliveryLimit' },
          ],
          responses: { '200': jsonBody('DeliveryList', 'A page of the delivery log.') },
        },
        400,
        404,
      ),
    },
    '/me/{uuid}/deliveries/{id}/redeliver': {
      parameters: [uuidParam, { $ref: '#/components/parameters/DeliveryId' }],
      post: hookOperation(
        {
          operationId: 'redeliver',
          tags: ['deliveries'],
          summary: 'Send a logged payload again',
          description:
            "The payload becomes pending again, behind the hook's other pending payloads, with the same `webhook-id`.",
          responses: { '200': jsonBody('DeliveryRecord', 'The payload, pending again.') },
        },
        400,
        404,
        409,
      ),
    },
  };
}
