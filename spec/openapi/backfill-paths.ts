import { hookOperation, jsonBody, requestBody, uuidParam } from './paths.js';
import type { Json } from './schema-components.js';

const backfillParam = { $ref: '#/components/parameters/BackfillId' };

/** The backfill routes of a hook, relative to either server prefix. */
export function backfillPaths(): Record<string, Json> {
  return {
    '/me/{uuid}/backfills': {
      parameters: [uuidParam],
      post: hookOperation(
        {
          operationId: 'createBackfill',
          tags: ['backfills'],
          summary: 'Evaluate a hook over a range of archived blocks',
          description:
            'Queues a scan of the canonical blocks from `from_block_height` to `to_block_height` (default: the tip now), enabled or not. Each block that matches goes out, in ascending height, as `{apply: [block], rollback: []}` through the normal delivery path, signed and retried, with the `stackhooks-backfill-id` header. Counters and status do not change, and a failed backfill payload does not interrupt the hook. A range that ends above the archive is scanned as far as the archive goes (`beyond_archive`). Live payloads of the hook keep flowing: both share one queue per hook, in the order they were queued, and a backfill keeps at most 16 payloads in it, so a live payload waits behind at most 16 backfill payloads. At most two backfills read the archive at once across the service; the others wait their turn (`queued`), the owner with the fewest running first. Progress is stored: after a restart a backfill goes on where it stopped, and a block sent just before may be sent again with the same `webhook-id`. Enabling an interrupted hook from the tip answers with `stackhooks-missed-from-block-height`, where a backfill of what it skipped starts.',
          requestBody: requestBody('BackfillRequest'),
          responses: { '202': jsonBody('Backfill', 'The backfill, queued.') },
        },
        400,
        404,
        413,
        415,
      ),
      get: hookOperation(
        {
          operationId: 'listBackfills',
          tags: ['backfills'],
          summary: "List a hook's backfills",
          responses: { '200': jsonBody('BackfillList', "The hook's backfills, newest first.") },
        },
        400,
        404,
      ),
    },
    '/me/{uuid}/backfills/{id}': {
      parameters: [uuidParam, backfillParam],
      get: hookOperation(
        {
          operationId: 'getBackfill',
          tags: ['backfills'],
          summary: 'Read a backfill: its state, progress and rate',
          responses: { '200': jsonBody('Backfill', 'The backfill.') },
        },
        400,
        404,
      ),
      delete: hookOperation(
        {
          operationId: 'cancelBackfill',
          tags: ['backfills'],
          summary: 'Cancel a backfill',
          description:
            'Nothing more is scanned; its payloads not yet sent are dropped (failed, with the reason), and what was sent stays sent. A finished backfill is returned as it is.',
          responses: { '200': jsonBody('Backfill', 'The backfill, cancelled (or as it finished).') },
        },
        400,
        404,
      ),
    },
  };
}
