import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { StackhooksError } from '../../core/hooks/errors.js';
import type { Logger } from '../../core/ports/logger.js';
import type { PredicateRegistry } from '../../core/use-cases/predicate-registry.js';

/** What the 1.x predicates listener serves and for whom. */
export type PredicatesListenerOptions = {
  predicates: PredicateRegistry;
  /** The owner every predicate registered here belongs to. */
  owner: string;
  /** When set, every route but `/ping` wants it, as `Authorization: Bearer <key>` or a `/key/<key>` path prefix. */
  key?: string;
  logger: Logger;
};

// 1.x's own body limit was Rocket's 1 MiB for JSON.
const MAX_BODY = 1024 * 1024;
const PING = 'chainhook service up and running';

type Answer = { status: number; body: Record<string, unknown> };

/**
 * An HTTP server answering Chainhook 1.x's predicates API (`/ping`, `/v1/chainhooks…`) with 1.x's
 * envelope: `{"status": 200, "result": …}`, `{"status": 404}`, `{"status": 4xx, "error": reason}`.
 */
export function createPredicatesServer(options: PredicatesListenerOptions): Server {
  return createServer((request, response) => {
    answer(options, request)
      .catch((error: unknown) => failure(options.logger, error))
      .then(({ status, body }) => send(response, status, body))
      .catch(() => response.destroy());
  });
}

async function answer(options: PredicatesListenerOptions, request: IncomingMessage): Promise<Answer> {
  const url = new URL(request.url ?? '/', 'http://chainhook.invalid');
  let path = url.pathname.replace(/\/+$/, '') || '/';
  const keyed = /^\/key\/([^/]+)(\/.*)?$/.exec(path);
  const givenKey = keyed ? decodeURIComponent(keyed[1]!) : bearer(request.headers.authorization);
  if (keyed) path = keyed[2] ?? '/';
  const method = request.method ?? 'GET';
  if (method === 'GET' && path === '/ping') return ok(PING);
  if (options.key !== undefined && (givenKey === undefined || !sameKey(givenKey, options.key)))
    return {
      status: 401,
      body: {
        status: 401,
        error:
          givenKey === undefined
            ? 'a key is required: Authorization: Bearer <key>, or /key/<key> before the path'
            : 'the key given is not this listener’s (STACKHOOKS_V1_KEY)',
      },
    };
  const { predicates, owner } = options;
  if (path === '/v1/chainhooks') {
    if (method === 'GET') return ok(await predicates.list(owner));
    if (method === 'POST') return ok(await predicates.register(owner, await readJson(request)));
  }
  const one = /^\/v1\/chainhooks\/([^/]+)$/.exec(path);
  if (one && method === 'GET') {
    const record = await predicates.get(owner, decodeURIComponent(one[1]!));
    return record ? ok(record) : { status: 404, body: { status: 404 } };
  }
  const stacks = /^\/v1\/chainhooks\/stacks\/([^/]+)$/.exec(path);
  if (stacks && method === 'DELETE') {
    // The client sends `content-type: application/json` and no body: whatever comes is read and dropped.
    await drain(request);
    // 1.x answered Ok whether or not it knew the predicate.
    await predicates.delete(owner, decodeURIComponent(stacks[1]!));
    return ok('Ok');
  }
  return { status: 404, body: { status: 404 } };
}

function ok(result: unknown): Answer {
  return { status: 200, body: { status: 200, result } };
}

const STATUS: Partial<Record<StackhooksError['code'], number>> = {
  validation: 422,
  conflict: 409,
  not_found: 404,
  limit_exceeded: 422,
  unavailable: 503,
};

function failure(logger: Logger, error: unknown): Answer {
  if (error instanceof StackhooksError && STATUS[error.code] !== undefined) {
    const status = STATUS[error.code]!;
    return { status, body: { status, error: error.message } };
  }
  logger.error('chainhook 1.x request failed', { error: String(error) });
  return { status: 500, body: { status: 500, message: 'internal error' } };
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const text = await readText(request);
  if (text.trim() === '') throw new StackhooksError('validation', 'the body must be a predicate in JSON');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new StackhooksError('validation', `the body is not JSON: ${(error as Error).message}`);
  }
}

async function readText(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new StackhooksError('validation', `the body is over ${MAX_BODY} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function drain(request: IncomingMessage): Promise<void> {
  for await (const chunk of request as AsyncIterable<Buffer>) void chunk;
}

function send(response: ServerResponse, status: number, body: Record<string, unknown>): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

function bearer(header: string | undefined): string | undefined {
  const match = header && /^Bearer\s+(.+)$/i.exec(header);
  return match ? match[1]!.trim() : undefined;
}

function sameKey(given: string, key: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(key));
}
