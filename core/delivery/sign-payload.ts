import { createHmac } from 'node:crypto';

/** The prefix Standard Webhooks libraries expect before a base64 signing secret. */
export const STANDARD_WEBHOOKS_PREFIX = 'whsec_';

/**
 * The Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 over `<id>.<timestamp>.<body>`, keyed
 * with the bytes the hex consumer secret encodes.
 */
export function signPayload(secretHex: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', Buffer.from(secretHex, 'hex'));
  mac.update(`${id}.${timestampSeconds}.`).update(body);
  return `v1,${mac.digest('base64')}`;
}

/**
 * The consumer secret as Standard Webhooks libraries (`standardwebhooks`, `svix`) take it:
 * `whsec_` + the base64 of the same bytes the hex form encodes. The API keeps the hex form, which
 * the official Chainhooks client requires; the libraries read a hex string as base64 and get the
 * wrong key.
 */
export function standardWebhooksSecret(secretHex: string): string {
  return `${STANDARD_WEBHOOKS_PREFIX}${Buffer.from(secretHex, 'hex').toString('base64')}`;
}
