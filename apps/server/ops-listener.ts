import { timingSafeEqual, createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Readiness } from '../../core/health/readiness.js';

/** What the operations listener serves. */
export type OpsListenerOptions = {
  /** The Prometheus exposition of this process. */
  metrics: () => Promise<string>;
  contentType: string;
  ready: () => Promise<Readiness>;
  /** When set, `/metrics` answers only `Authorization: Bearer <token>` (Prometheus' `authorization` setting). */
  token?: string;
};

/**
 * The listener every process has, whatever its role (a worker serves no API): `GET /metrics` for
 * Prometheus, `GET /health` (the process answers) and `GET /ready` for probes. It binds to
 * 127.0.0.1 by default; exposed further, a token guards the metrics (probes stay open: they tell
 * nothing but ready or not).
 */
export function createOpsServer(options: OpsListenerOptions): Server {
  return createServer((req, res) => {
    serve(req, res, options).catch((err: unknown) => json(res, 500, { message: String(err) }));
  });
}

async function serve(req: IncomingMessage, res: ServerResponse, options: OpsListenerOptions): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  if (req.method !== 'GET' && req.method !== 'HEAD') return json(res, 405, { message: 'only GET' });
  if (path === '/health') return json(res, 200, { status: 'ok' });
  if (path === '/ready') {
    const readiness = await options.ready();
    return json(res, readiness.ready ? 200 : 503, readiness);
  }
  if (path === '/metrics') {
    if (options.token !== undefined && !bearerMatches(req.headers.authorization, options.token)) {
      res.setHeader('www-authenticate', 'Bearer');
      return json(res, 401, { message: 'send the metrics token as Authorization: Bearer <token>' });
    }
    const text = await options.metrics();
    res.writeHead(200, { 'content-type': options.contentType });
    res.end(text);
    return;
  }
  json(res, 404, { message: `no route for ${req.method} ${path}; try /metrics, /health or /ready` });
}

// Compared as digests, so the time taken says nothing about the token.
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/i.exec(header ?? '')?.[1] ?? '';
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(token));
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
