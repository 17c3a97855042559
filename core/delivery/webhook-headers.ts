import type { OutgoingPayload } from '../ports/delivery-queue.js';
import { BACKFILL_HEADER, backfillOfPayload } from '../backfill/backfill-payload.js';
import { signPayload } from './sign-payload.js';

/**
 * The headers of Hiro's Chainhooks API for one attempt; the secret ones only when the owner has a
 * secret, and `stackhooks-backfill-id` on a backfill's payloads.
 */
export function webhookHeaders(
  payload: Pick<OutgoingPayload, 'id' | 'kind'>,
  body: string,
  timestampSeconds: number,
  secret: string | null,
  serverVersion: string,
): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': `stackhooks/${serverVersion}`,
    'webhook-id': payload.id,
    'webhook-timestamp': String(timestampSeconds),
  };
  const backfill = payload.kind === 'backfill' ? backfillOfPayload(payload.id) : undefined;
  if (backfill) headers[BACKFILL_HEADER] = backfill;
  if (secret) {
    headers.authorization = `Bearer ${secret}`;
    headers['x-chainhook-consumer-secret'] = secret;
    headers['webhook-signature'] = signPayload(secret, payload.id, timestampSeconds, body);
  }
  return headers;
}
