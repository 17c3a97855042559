import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { Next } from 'koa';
import type { ApiContext } from './api-state.js';
import { sendError } from './error-response.js';

/** Where the dashboard is served, on the API's own port. */
export const DASHBOARD_PATH = '/dashboard';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.map': 'application/json; charset=utf-8',
};

// The page loads only its own files and talks only to its own origin: a key typed into it cannot
// be sent elsewhere by injected markup, and no other site may frame it.
const SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-cache',
};

// The dashboard is one flat folder; a name of this shape cannot leave it.
const ASSET_NAME = /^[a-z0-9-]+\.(html|js|css|svg|map)$/;

/**
 * Where the dashboard's built files are: a folder, or a lookup that gives undefined while they are
 * not built (yet).
 */
export type DashboardFolder = string | undefined | (() => string | undefined);

/**
 * Serve the dashboard's files under `/dashboard/` from `where` (the route says how to build them
 * while there are none). A lookup is asked again on each request until it finds them: a build that
 * ends after the server started (a first `npx` in a fresh clone rebuilds the package) is served
 * without a restart.
 */
export function serveDashboard(where: DashboardFolder) {
  const cache = new Map<string, Buffer>();
  let found = typeof where === 'function' ? undefined : where;
  return async function dashboard(ctx: ApiContext, next: Next): Promise<void> {
    if (ctx.path !== DASHBOARD_PATH && !ctx.path.startsWith(`${DASHBOARD_PATH}/`)) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD');
      return sendError(ctx, 405, `the dashboard answers GET and HEAD, not ${ctx.method}`);
    }
    // Its files are named relative to the folder, so the page must be read at the folder's URL.
    if (ctx.path === DASHBOARD_PATH) return ctx.redirect(`${DASHBOARD_PATH}/`);
    const name = ctx.path.slice(DASHBOARD_PATH.length + 1) || 'index.html';
    if (!ASSET_NAME.test(name)) return sendError(ctx, 404, `the dashboard has no file ${name}`);
    const folder = (found ??= typeof where === 'function' ? where() : undefined);
    if (folder === undefined) {
      return sendError(ctx, 503, 'the dashboard is not built: run `npm run build` in the stackhooks folder');
    }
    const body = cache.get(name) ?? (await readAsset(folder, name));
    if (!body) return sendError(ctx, 404, `the dashboard has no file ${name}`);
    cache.set(name, body);
    ctx.set(SECURITY_HEADERS);
    ctx.type = CONTENT_TYPES[extname(name)];
    ctx.body = body;
  };
}

async function readAsset(folder: string, name: string): Promise<Buffer | undefined> {
  try {
    return await readFile(join(folder, name));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
