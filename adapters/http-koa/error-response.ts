import { STATUS_CODES } from 'node:http';
import type { Next } from 'koa';
import { StackhooksError, type FailureCode, type FieldProblem } from '../../core/hooks/errors.js';
import type { Logger } from '../../core/ports/logger.js';
import type { ApiContext } from './api-state.js';

const STATUS_BY_CODE: Record<FailureCode, number> = {
  validation: 400,
  unauthorized: 401,
  limit_exceeded: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
  unavailable: 503,
};

/** The error body of Hiro's Chainhooks API. */
export type ErrorBody = { statusCode: number; error: string; message: string; details?: FieldProblem[] };

/** Write an error body with the reason phrase of its status. */
export function sendError(ctx: ApiContext, status: number, message: string, details?: FieldProblem[]): void {
  const body: ErrorBody = { statusCode: status, error: STATUS_CODES[status] ?? 'Error', message };
  if (details && details.length > 0) body.details = details;
  ctx.status = status;
  ctx.body = body;
}

/** Map every failure to its status and error body; anything unexpected is a logged 500 that shows no internals. */
export function errorResponse(logger: Logger) {
  return async function respondWithError(ctx: ApiContext, next: Next): Promise<void> {
    try {
      await next();
    } catch (err) {
      if (err instanceof StackhooksError) {
        if (err.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(err.retryAfterSeconds));
        sendError(ctx, STATUS_BY_CODE[err.code], err.message, err.details);
        return;
      }
      const status = bodyParserStatus(err);
      if (status !== undefined) {
        sendError(ctx, status, bodyParserMessage(status, err));
        return;
      }
      logger.error('request failed', { request_id: ctx.state.requestId, error: describe(err) });
      sendError(ctx, 500, `internal error (request ${ctx.state.requestId})`);
    }
  };
}

// The body parser (and our own content checks) throw errors carrying an HTTP status; only
// client-side statuses are passed on, anything else is a fault of ours.
function bodyParserStatus(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { status } = err as { status?: unknown };
  return status === 400 || status === 413 || status === 415 ? status : undefined;
}

function bodyParserMessage(status: number, err: unknown): string {
  if (status === 413) return 'body is larger than the 1 MB limit';
  if (status === 415) {
    // Our own refusals say what they refuse; the parser's mean the content type.
    const { reason } = err as { reason?: unknown };
    return typeof reason === 'string' ? reason : 'body must be JSON (content-type: application/json)';
  }
  const detail = err instanceof Error ? err.message : String(err);
  return `body is not valid JSON: ${detail}`;
}

function describe(err: unknown): string {
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}
