import { createHmac, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError } from '../server/config.js';
import { describeDelivery } from './delivery-text.js';

/** Where the receiver listens, the consumer secret it checks signatures with, and where it prints. */
export type ReceiverOptions = {
  port: number;
  /** Default 127.0.0.1: a development receiver has no business on other interfaces. */
  host?: string;
  /** The owner's consumer secret, `whsec_…` or hex; without it deliveries are printed unchecked. */
  secret?: string;
  /** Gets the text of each delivery, one call per delivery so concurrent ones never interleave. */
  out: (text: string) => void;
  /** Unix milliseconds, for the timestamp check; tests fix it. */
  now?: () => number;
};

/** A running receiver. */
export type Receiver = { port: number; close(): Promise<void> };

/** How far `webhook-timestamp` may be from now, either way: the Standard Webhooks replay window. */
export const TIMESTAMP_TOLERANCE_SECONDS = 300;
// Bodies are whole chain updates; anything past this is not a stackhooks delivery.
const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** The outcome of checking a delivery's signature. */
export type SignatureVerdict = { valid: boolean; text: string };

/**
 * The key bytes of a consumer secret given either way: `whsec_` + base64 (the Standard Webhooks
 * form) or hex (the form of the API's `secret` field); undefined for anything else.
 */
export function secretKey(secret: string): Buffer | undefined {
  if (secret.startsWith('whsec_')) {
    const base64 = secret.slice('whsec_'.length);
    return /^[A-Za-z0-9+/]+={0,2}$/.test(base64) ? Buffer.from(base64, 'base64') : undefined;
  }
  return /^([0-9a-fA-F]{2})+$/.test(secret) ? Buffer.from(secret, 'hex') : undefined;
}

/**
 * Check a Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 of `<id>.<timestamp>.<body>`
 * keyed with the secret's bytes, compared in constant time against every signature listed, with
 * the timestamp within five minutes of now. Computed here rather than with the server's signer so
 * that the receiver is an independent check of what the server sends.
 */
export function verifySignature(
  key: Buffer,
  headers: IncomingMessage['headers'],
  body: Buffer,
  nowMs: number,
): SignatureVerdict {
  const invalid = (why: string): SignatureVerdict => ({ valid: false, text: `signature INVALID (${why})` });
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof signatures !== 'string') return invalid('no webhook-signature header');
  if (typeof id !== 'string' || typeof timestamp !== 'string' || !/^\d+$/.test(timestamp)) {
    return invalid('webhook-id or webhook-timestamp missing');
  }
  const skew = Math.round(nowMs / 1000) - Number(timestamp);
  if (Math.abs(skew) > TIMESTAMP_TOLERANCE_SECONDS) {
    return invalid(`timestamp ${Math.abs(skew)} s ${skew > 0 ? 'old' : 'in the future'}`);
  }
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
  const matches = signatures.split(' ').some((signature) => {
    if (!signature.startsWith('v1,')) return false;
    const given = Buffer.from(signature.slice(3), 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches ? { valid: true, text: 'signature ok' } : invalid('no signature matches the secret');
}

/** Listen for webhook POSTs, check their signatures when a secret is given, and print each one. */
export async function startReceiver(options: ReceiverOptions): Promise<Receiver> {
  const { secret, out } = options;
  const key = secret === undefined ? undefined : secretKey(secret);
  if (secret !== undefined && key === undefined) {
    throw new ConfigError(
      '--secret must be the consumer secret: standard_webhooks_secret (whsec_…) or secret (hex), as the API shows them',
    );
  }
  const now = options.now ?? Date.now;
  const server = createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST', 'content-type': 'text/plain' }).end('POST webhooks here\n');
      return;
    }
    readBody(req).then(
      (body) => {
        const verdict =
          key !== undefined
            ? verifySignature(key, req.headers, body, now())
            : {
                valid: true,
                text: req.headers['webhook-signature'] ? 'signed (no --secret to check)' : 'unsigned',
              };
        try {
          out(describeDelivery(req.url ?? '/', req.headers, body, verdict.text));
        } catch (err) {
          out(`POST ${req.url ?? '/'}: ${verdict.text}; could not print the body: ${String(err)}`);
        }
        const status = verdict.valid ? 200 : 401;
        res
          .writeHead(status, { 'content-type': 'text/plain' })
          .end(verdict.valid ? 'ok\n' : 'invalid signature\n');
      },
      (err: Error) => {
        out(`POST ${req.url ?? '/'}: ${err.message}`);
        res.writeHead(413, { 'content-type': 'text/plain' }).end(`${err.message}\n`);
      },
    );
  });
  server.listen(options.port, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** `stackhooks receive [--port N] [--host H] [--secret S]`: run a receiver until SIGINT or SIGTERM. */
export async function runReceiveCommand(options: {
  port: number;
  host: string;
  secret?: string;
}): Promise<void> {
  const { port, host, secret } = options;
  const receiver = await startReceiver({ port, host, secret, out: (text) => console.log(text) });
  const checking = secret ? 'checking signatures' : 'not checking signatures (no --secret)';
  console.log(`receiving webhooks on http://${host}:${receiver.port}/ (${checking}); Ctrl-C stops`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      receiver.close().finally(() => process.exit(0));
    });
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      // Drain the rest unread so that the 413 still reaches the sender.
      req.removeAllListeners('data').resume();
      reject(new Error(`body over ${MAX_BODY_BYTES} bytes`));
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
