import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { StackhooksError } from '../../core/hooks/errors.js';
import type { ApiKeys } from '../../core/use-cases/api-keys.js';

/** The admin socket's file name inside the data folder; only users who can reach the folder can reach it. */
export const ADMIN_SOCKET_NAME = 'admin.sock';

/** Path of a data folder's admin socket. */
export function adminSocketPath(dataDir: string): string {
  return join(dataDir, ADMIN_SOCKET_NAME);
}

/**
 * Serve key administration on a unix socket in the data folder, so `stackhooks keys …` works while
 * the server runs (the server owns the store file; a second writer would lose updates).
 */
export async function listenAdminSocket(dataDir: string, keys: ApiKeys): Promise<Server> {
  const path = adminSocketPath(dataDir);
  await rm(path, { force: true });
  const server = createServer((req, res) => {
    handle(keys, req, res).catch((err: unknown) => reply(res, 500, { message: String(err) }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  return server;
}

async function handle(keys: ApiKeys, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const url = new URL(req.url ?? '/', 'http://admin');
    if (req.method === 'GET' && url.pathname === '/keys') return reply(res, 200, await keys.list());
    if (req.method === 'POST' && url.pathname === '/keys') {
      const { owner } = JSON.parse(await readBody(req)) as { owner?: unknown };
      return reply(res, 200, await keys.issue(String(owner ?? '')));
    }
    const revoke = /^\/keys\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'DELETE' && revoke) {
      await keys.revoke(decodeURIComponent(revoke[1]));
      return reply(res, 204, undefined);
    }
    reply(res, 404, { message: `no admin route for ${req.method} ${url.pathname}` });
  } catch (err) {
    if (err instanceof StackhooksError)
      return reply(res, err.code === 'not_found' ? 404 : 400, { message: err.message });
    throw err;
  }
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(body === undefined ? undefined : JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8') || '{}';
}
