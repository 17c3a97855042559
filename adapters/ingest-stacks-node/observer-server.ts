import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StackhooksError } from '../../core/hooks/errors.js';
import type { EventLog } from '../../core/ports/event-log.js';
import type { Logger } from '../../core/ports/logger.js';

/** A node posts blocks of tens of megabytes at most; anything larger is refused. */
export const OBSERVER_BODY_LIMIT = 64 * 1024 * 1024;

export type ObserverOptions = {
  log: EventLog;
  logger: Logger;
  /** Called after each entry is durably appended, to wake the processing loop. */
  onAppended: (id: number) => void;
  now?: () => number;
};

/**
 * The HTTP endpoint a stacks-node `[[events_observer]]` posts to. Every POST body, on any path, is
 * appended to the raw event log before the 200, so a 200 is never given for a body a crash could
 * lose; processing happens afterwards. Malformed JSON is a 400 (the node will retry it for ever,
 * which is the node's contract: a body we cannot read must not be acknowledged). A store that cannot
 * take the body for now answers 503 with Retry-After, and the node posts it again.
 */
export function createObserverServer(options: ObserverOptions): Server {
  const now = options.now ?? Date.now;
  return createServer((req, res) => {
    handle(req, res, options, now).catch((err: unknown) => {
      if (err instanceof StackhooksError && err.code === 'unavailable') {
        // The store is down for now (a database outage, a full disk): the node retries the same post.
        options.logger.warn('observer could not store an event; the node will retry it', {
          path: req.url,
          error: err.message,
        });
        return reply(
          res,
          503,
          { message: err.message },
          { 'retry-after': String(err.retryAfterSeconds ?? 5) },
        );
      }
      options.logger.error('observer request failed', { path: req.url, error: String(err) });
      reply(res, 500, { message: 'could not store the event' });
    });
  });
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  options: ObserverOptions,
  now: () => number,
) {
  const path = (req.url ?? '/').split('?')[0];
  if (req.method !== 'POST') {
    return reply(res, req.method === 'GET' ? 200 : 405, { status: 'ready' });
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > OBSERVER_BODY_LIMIT) {
    req.resume();
    return reply(res, 413, { message: `body is larger than ${OBSERVER_BODY_LIMIT} bytes` });
  }
  const body = await readBody(req);
  if (body === undefined)
    return reply(res, 413, { message: `body is larger than ${OBSERVER_BODY_LIMIT} bytes` });
  try {
    JSON.parse(body);
  } catch (err) {
    return reply(res, 400, { message: `body is not valid JSON: ${(err as Error).message}` });
  }
  const id = await options.log.append(path, body, now());
  reply(res, 200, { result: 'ok', id });
  options.onAppended(id);
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > OBSERVER_BODY_LIMIT) {
        req.removeAllListeners('data');
        req.resume();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function reply(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Listen on `host:port` and resolve with the bound port. */
export function listenObserver(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
