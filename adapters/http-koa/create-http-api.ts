import Router from '@koa/router';
import Koa, { type Next } from 'koa';
import { koaBody } from 'koa-body';
import { StackhooksError } from '../../core/hooks/errors.js';
import type { Readiness } from '../../core/health/readiness.js';
import type { ServiceCondition } from '../../core/health/service-conditions.js';
import type { QuarantineEntry } from '../../core/ports/block-store.js';
import type { Logger } from '../../core/ports/logger.js';
import type { ApiKeys } from '../../core/use-cases/api-keys.js';
import { openApiDocument } from '../../spec/index.js';
import type { ApiContext, ApiState } from './api-state.js';
import { errorResponse, sendError } from './error-response.js';
import { serveDashboard, type DashboardFolder } from './dashboard-route.js';
import { addHookRoutes, type HookRouteDeps } from './hook-routes.js';
import { RequestRateLimit } from './rate-limit.js';
import { requestLog, type RequestDone } from './request-log.js';

/** Both prefixes: the documented one first, then the one the npm client calls. */
export const API_PREFIXES = ['/chainhooks/v1', '/chainhooks'] as const;

export type HttpApiOptions = HookRouteDeps & {
  logger: Logger;
  serverVersion: string;
  /** Requests one key may make a minute. */
  requestsPerMinute: number;
  /** Largest accepted JSON body, in bytes. */
  bodyLimitBytes?: number;
  /** The archive's view of the chain, added to the status route for operators. */
  chainStatus?: () => Promise<ChainStatus>;
  /** Told of every request as it ends (for metrics). */
  onRequest?: (request: RequestDone) => void;
  /** Whether the service should get traffic, for `GET /ready` (without it, `/ready` is not served). */
  readiness?: () => Promise<Readiness>;
  /** Serve the dashboard at `/dashboard/` from the folder of its built files (undefined: not built). Off when absent. */
  dashboard?: { folder: DashboardFolder };
};

/**
 * What the status route tells beyond Hiro's `{server_version, status}`: the canonical tip, how many
 * blocks are archived, how far block processing is behind what the node posted, and the conditions
 * keeping the service from part of its work (`status` stays `ready`, the literal the official
 * client expects; readiness is told by the conditions).
 */
export type ChainStatus = {
  chain_tip: { block_height: number; index_block_hash: string } | null;
  archived_blocks: number;
  /** The newest entry the observer stored, the last one processed, and how many lie between. */
  ingest?: {
    newest_entry: { id: number; received_at: number } | null;
    processed_entry: number;
    entries_behind: number;
    /** When the node posted the last block processed (ms), or null before the first. */
    last_block_at: number | null;
    /** How long the oldest entry not yet processed has waited (seconds; 0 when caught up). */
    lag_seconds: number;
  };
  /** The chain's health: when the last block came, open gaps, held orphans, unreadable and quarantined bodies. */
  chain?: ChainHealthStatus;
  /** Payloads waiting to be delivered, and when the oldest at the head of a hook's queue was created (ms). */
  outbox?: { pending: number; oldest_pending_created_at: number | null };
  conditions: ServiceCondition[];
};

/** Heights missing from the canonical chain, as the status route shows them. */
export type GapStatus = {
  from_height: number;
  to_height: number;
  missing: number;
  /** The canonical block just above the gap, whose parent is missing. */
  above: { block_height: number; index_block_hash: string };
  /** The block whose arrival opened the gap. */
  opened_by: string;
  /** ms since the epoch. */
  opened_at: number;
};

/** What the status route tells of the chain's health. */
export type ChainHealthStatus = {
  /** When the last new block was stored (ms since the epoch), or null. */
  last_block_received_at: number | null;
  /** How many gaps are open, and the lowest of them (a bounded list). */
  open_gaps: number;
  gaps: GapStatus[];
  held_orphans: number;
  unreadable_blocks: number;
  /** How many bodies are quarantined, and the latest of them (newest first, without their bodies). */
  quarantined_bodies: number;
  recent_quarantined: QuarantineEntry[];
};

/** The hook API as a Koa app (to listen on) and its router (to mount in another Koa app). */
export function createHttpApi(options: HttpApiOptions): { app: Koa<ApiState>; router: Router<ApiState> } {
  const router = createApiRouter(options);
  const app = new Koa<ApiState>();
  app.use(requestLog(options.logger, options.onRequest));
  app.use(errorResponse(options.logger));
  if (options.dashboard) app.use(serveDashboard(options.dashboard.folder));
  app.use(routeApi(router));
  app.use(async (ctx: ApiContext) => {
    if (ctx.status === 404 && ctx.body === undefined)
      sendError(ctx, 404, `no route for ${ctx.method} ${ctx.path}`);
  });
  return { app, router };
}

/** A router carrying every route under both prefixes, with its own key check, rate limit and body parsing. */
export function createApiRouter(options: HttpApiOptions): Router<ApiState> {
  const root = new Router<ApiState>();
  const limit = new RequestRateLimit(options.requestsPerMinute);
  // Probes, at the root and with no key: a load balancer or an orchestrator asks them.
  root.get('/health', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  const { readiness } = options;
  if (readiness) {
    root.get('/ready', async (ctx) => {
      const answer = await readiness();
      ctx.status = answer.ready ? 200 : 503;
      ctx.body = answer;
    });
  }
  for (const prefix of API_PREFIXES) {
    const api = new Router<ApiState>({ prefix });
    const status = async (ctx: ApiContext) => {
      const chain = options.chainStatus ? await options.chainStatus() : {};
      ctx.body = { server_version: options.serverVersion, status: 'ready', ...chain };
    };
    api.get('/', status);
    api.get('/openapi.json', (ctx) => {
      ctx.body = openApiDocument;
    });
    api.use('/me', authenticate(options.keys, limit), parseJsonBody(options.bodyLimitBytes ?? 1024 * 1024));
    addHookRoutes(api, options);
    root.use(api.routes(), api.allowedMethods());
  }
  return root;
}

/**
 * The router as one middleware for another Koa app: collections answer with and without a trailing
 * slash, so one is stripped before routing.
 */
export function routeApi(router: Router<ApiState>) {
  const routes = router.routes();
  const allowed = router.allowedMethods();
  return async function routeToApi(ctx: ApiContext, next: Next): Promise<void> {
    if (ctx.path.length > 1 && ctx.path.endsWith('/')) ctx.path = ctx.path.slice(0, -1);
    await routes(ctx as never, () => allowed(ctx as never, next));
    // The router sets these statuses after what came after it wrote its own body (a 404's).
    if (ctx.status === 405) {
      sendError(
        ctx,
        405,
        `${ctx.method} is not allowed on ${ctx.path}: it answers ${ctx.response.get('Allow')}`,
      );
    } else if (ctx.status === 501) {
      sendError(ctx, 501, `the method ${ctx.method} is not implemented`);
    }
  };
}

function authenticate(keys: ApiKeys, limit: RequestRateLimit) {
  return async function checkKey(ctx: ApiContext, next: Next): Promise<void> {
    const { owner, keyId } = await keys.authenticate(ctx.get('x-api-key') || undefined);
    ctx.state.owner = owner;
    ctx.state.keyId = keyId;
    const wait = limit.take(keyId);
    if (wait > 0) {
      throw new StackhooksError(
        'rate_limited',
        `rate limit exceeded for this key; retry in ${wait} s`,
        [],
        wait,
      );
    }
    await next();
  };
}

function parseJsonBody(limitBytes: number) {
  const parse = koaBody({
    json: true,
    jsonLimit: limitBytes,
    jsonStrict: false,
    urlencoded: false,
    text: false,
    multipart: false,
  });
  return async function requireJson(ctx: ApiContext, next: Next): Promise<void> {
    const hasBody = ctx.request.length > 0 || ctx.get('transfer-encoding') !== '';
    if (hasBody && !ctx.is('application/json', '+json')) {
      throw Object.assign(new Error('unsupported media type'), { status: 415, expose: true });
    }
    if (hasBody && ctx.request.length > limitBytes) {
      throw Object.assign(new Error('payload too large'), { status: 413, expose: true });
    }
    const encoding = ctx.get('content-encoding').trim().toLowerCase() || 'identity';
    if (hasBody && !BODY_ENCODINGS.includes(encoding)) {
      const reason = `content-encoding ${encoding} is not supported: send the body as ${BODY_ENCODINGS.join(', ')}`;
      throw Object.assign(new Error(reason), { status: 415, expose: true, reason });
    }
    // Parsed apart from the routes after it, so that only the parser's own failures are read here.
    let parsed = false;
    try {
      await parse(ctx, async () => {
        parsed = true;
      });
    } catch (err) {
      // A body that does not decompress is the client's fault, like one that does not parse.
      if (!parsed && encoding !== 'identity' && !hasHttpStatus(err)) {
        const detail = err instanceof Error ? err.message : String(err);
        throw new StackhooksError(
          'validation',
          `body could not be decompressed (content-encoding ${encoding}): ${detail}`,
        );
      }
      throw err;
    }
    await next();
  };
}

/** The content encodings a request body may come in (what the body parser decompresses). */
const BODY_ENCODINGS = ['identity', 'gzip', 'deflate', 'br'];

function hasHttpStatus(err: unknown): boolean {
  return typeof err === 'object' && err !== null && typeof (err as { status?: unknown }).status === 'number';
}
