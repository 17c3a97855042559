import { randomUUID } from 'node:crypto';
import type { Next } from 'koa';
import type { Logger } from '../../core/ports/logger.js';
import type { ApiContext } from './api-state.js';

const INCOMING_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Give every request an id (the caller's `x-request-id` when sane) and log one line when it ends. */
export function requestLog(logger: Logger) {
  return async function logRequest(ctx: ApiContext, next: Next): Promise<void> {
    const started = process.hrtime.bigint();
    const incoming = ctx.get('x-request-id');
    ctx.state.requestId = INCOMING_ID.test(incoming) ? incoming : randomUUID();
    ctx.set('x-request-id', ctx.state.requestId);
    try {
      await next();
    } finally {
      logger.info('request', {
        request_id: ctx.state.requestId,
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        duration_ms: Number(process.hrtime.bigint() - started) / 1e6,
        owner: ctx.state.owner,
      });
    }
  };
}
