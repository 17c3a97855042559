import { randomUUID } from 'node:crypto';
import type { Next } from 'koa';
import type { Logger } from '../../core/ports/logger.js';
import type { ApiContext } from './api-state.js';

const INCOMING_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** One API request as it ended: `route` is the template it matched (`/chainhooks/v1/me/:uuid`) or `unmatched`. */
export type RequestDone = { method: string; route: string; status: number; ms: number };

/**
 * Give every request an id (the caller's `x-request-id` when sane), log one line when it ends, and
 * tell `onDone` (metrics) its route template, never the raw path, so ids in paths add no series.
 */
export function requestLog(logger: Logger, onDone?: (request: RequestDone) => void) {
  return async function logRequest(ctx: ApiContext, next: Next): Promise<void> {
    const started = process.hrtime.bigint();
    const incoming = ctx.get('x-request-id');
    ctx.state.requestId = INCOMING_ID.test(incoming) ? incoming : randomUUID();
    ctx.set('x-request-id', ctx.state.requestId);
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info('request', {
        request_id: ctx.state.requestId,
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        duration_ms: ms,
        owner: ctx.state.owner,
      });
      const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
      onDone?.({
        method: ctx.method,
        route: typeof route === 'string' ? route : 'unmatched',
        status: ctx.status,
        ms,
      });
    }
  };
}
