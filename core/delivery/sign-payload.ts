import { createHmac } from 'node:crypto';

/**
 * The Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 over `<id>.<timestamp>.<body>`, keyed
 * with the bytes the hex consumer secret encodes (compat.md section 7).
 */
export function signPayload(secretHex: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', Buffer.from(secretHex, 'hex'));
  mac.update(`${id}.${timestampSeconds}.`).update(body);
  return `v1,${mac.digest('base64')}`;
}
