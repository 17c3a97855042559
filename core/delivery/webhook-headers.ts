import type { OutgoingPayload } from '../ports/delivery-queue.js';
import { signPayload } from './sign-payload.js';

/** The headers of Hiro's Chainhooks API for one attempt; the secret ones only when the owner has a secret. */
export function webhookHeaders(
  payload: OutgoingPayload,
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
  if (secret) {
    headers.authorization = `Bearer ${secret}`;
    headers['x-chainhook-consumer-secret'] = secret;
    headers['webhook-signature'] = signPayload(secret, payload.id, timestampSeconds, body);
  }
  return headers;
}
