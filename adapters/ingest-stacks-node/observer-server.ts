import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isStoreOutage } from '../../core/hooks/errors.js';
import type { EventLog } from '../../core/ports/event-log.js';
import type { Logger } from '../../core/ports/logger.js';

/** A node posts blocks of tens of megabytes at most; anything larger is refused. */
export const OBSERVER_BODY_LIMIT = 64 * 1024 * 1024;

/**
 * Bytes of bodies the observer holds at once (read, checked, being stored): one body of the
 * largest size. A body is always taken when no other is held; one that would pass the bound while
 * others are held is answered 503 with Retry-After, and the node posts it again.
 */
export const OBSERVER_BODIES_IN_FLIGHT_BYTES = OBSERVER_BODY_LIMIT;

export type ObserverOptions = {
  log: EventLog;
  logger: Logger;
  /**
   * Called after each entry is durably appended, to wake the processing loop (and count it);
   * `seconds` is how long the post took from its headers arriving to its entry stored, and
   * `appendSeconds` the part of it the event log's append took (what the store costs a post).
   */
  onAppended: (id: number, path: string, receivedAt: number, seconds: number, appendSeconds: number) => void;
  now?: () => number;
  /** Bytes of bodies held at once (default `OBSERVER_BODIES_IN_FLIGHT_BYTES`). */
  bodiesInFlightBytes?: number;
};

/** The bodies held now, against the bound; a body reserves its bytes until it is stored or refused. */
class BodyBudget {
  private held = 0;

  constructor(private readonly bound: number) {}

  /** Reserve `bytes` more; false when that would pass the bound while other bodies are held. */
  take(bytes: number, alreadyHeld = 0): boolean {
    if (this.held > alreadyHeld && this.held + bytes > this.bound) return false;
    this.held += bytes;
    return true;
  }

  /** Give back what a body reserved. */
  release(bytes: number): void {
    this.held -= bytes;
  }
}

/** Thrown while reading a body that would pass the bound on bodies held at once. */
class BodiesInFlight extends Error {}

/**
 * The HTTP endpoint a stacks-node `[[events_observer]]` posts to. Every POST body, on any path, is
 * appended to the raw event log before the 200, so a 200 is never given for a body a crash could
 * lose; processing happens afterwards. Malformed JSON is a 400 (the node will retry it for ever,
 * which is the node's contract: a body we cannot read must not be acknowledged). A store that cannot
 * take the body for now answers 503 with Retry-After, and the node posts it again.
 */
export function createObserverServer(options: ObserverOptions): Server {
  const now = options.now ?? Date.now;
  const budget = new BodyBudget(options.bodiesInFlightBytes ?? OBSERVER_BODIES_IN_FLIGHT_BYTES);
  return createServer((req, res) => {
    handle(req, res, options, now, budget).catch((err: unknown) => {
      if (err instanceof BodiesInFlight) {
        // Memory stays bounded: the node waits and posts the same body again.
        options.logger.warn('observer is holding other large bodies; the node will post again', {
          path: req.url,
          bytes: Number(req.headers['content-length'] ?? 0) || undefined,
        });
        return reply(
          res,
          503,
          { message: 'the observer is storing other large bodies; post again' },
          { 'retry-after': '1' },
        );
      }
      if (isStoreOutage(err)) {
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
  budget: BodyBudget,
) {
  const started = performance.now();
  const path = (req.url ?? '/').split('?')[0];
  if (req.method !== 'POST') {
    return reply(res, req.method === 'GET' ? 200 : 405, { status: 'ready' });
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > OBSERVER_BODY_LIMIT) {
    req.resume();
    return reply(res, 413, { message: `body is larger than ${OBSERVER_BODY_LIMIT} bytes` });
  }
  // A declared length is reserved before reading; a body sent in chunks reserves as it arrives.
  // A body refused for the bound is still read to its end (and dropped): answering while the node
  // is sending would reset its connection instead of telling it to post again.
  let reserved = 0;
  const reserve = (bytes: number): boolean => {
    if (bytes <= reserved) return true;
    if (!budget.take(bytes - reserved, reserved)) return false;
    reserved = bytes;
    return true;
  };
  try {
    const body = await readBody(req, reserve(declared) ? reserve : undefined);
    if (body === 'too large')
      return reply(res, 413, { message: `body is larger than ${OBSERVER_BODY_LIMIT} bytes` });
    if (body === 'refused') throw new BodiesInFlight();
    try {
      JSON.parse(body);
    } catch (err) {
      return reply(res, 400, { message: `body is not valid JSON: ${(err as Error).message}` });
    }
    const receivedAt = now();
    const appending = performance.now();
    const id = await options.log.append(path, body, receivedAt);
    const stored = performance.now();
    // Told first: a reader woken by the 200 (a test, a script) then finds the entry counted.
    options.onAppended(id, path, receivedAt, (stored - started) / 1000, (stored - appending) / 1000);
    reply(res, 200, { result: 'ok', id });
  } finally {
    budget.release(reserved);
  }
}

/**
 * Read a body, reserving its bytes as they arrive (`reserve` undefined: refused already). A body
 * past the limit is cut off; one the reservation refuses is read to its end and dropped.
 */
function readBody(
  req: IncomingMessage,
  reserve: ((bytes: number) => boolean) | undefined,
): Promise<string | 'too large' | 'refused'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = reserve === undefined;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > OBSERVER_BODY_LIMIT) {
        req.removeAllListeners('data');
        req.resume();
        resolve('too large');
        return;
      }
      if (refused) return;
      if (!reserve?.(size)) {
        refused = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(refused ? 'refused' : Buffer.concat(chunks, size).toString('utf8')));
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
