import { request } from 'node:http';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { adminSocketPath } from '../server/admin-socket.js';
import { ConfigError } from '../server/config.js';
import { createStackhooks } from '../server/container.js';
import { DataDirInUseError, lockDataDir, type DataDirLock } from '../server/data-dir-lock.js';
import { silentLogger } from '../../adapters/system/index.js';

/** What `keys` can be asked to do. */
export type KeysAction =
  { kind: 'create'; owner: string } | { kind: 'list' } | { kind: 'revoke'; id: string };

/** The store the keys live in: the data folder, or PostgreSQL when `databaseUrl` is set. */
export type KeysStore = { dataDir: string; databaseUrl?: string };

/**
 * Run a key command on the store the server uses: PostgreSQL when a database URL is given (any
 * number of servers may run against it, so no lock is taken); otherwise through the running
 * server's admin socket when a server owns the data folder, else directly on the folder's store
 * (holding its lock meanwhile).
 */
export async function runKeysCommand(store: KeysStore, action: KeysAction): Promise<string> {
  if (store.databaseUrl) return onStore({ databaseUrl: store.databaseUrl }, action);
  const { dataDir } = store;
  // Only a first key may make the folder: a list or a revoke there would read a new, empty store.
  if (action.kind !== 'create' && !existsSync(dataDir)) {
    throw new ConfigError(
      `no data folder at ${resolve(dataDir)}: give the server's (--data-dir or STACKHOOKS_DATA_DIR), ` +
        'or STACKHOOKS_DATABASE_URL for PostgreSQL',
    );
  }
  let lock: DataDirLock;
  try {
    lock = await lockDataDir(dataDir);
  } catch (err) {
    if (err instanceof DataDirInUseError && existsSync(adminSocketPath(dataDir))) {
      return viaAdminSocket(dataDir, action);
    }
    throw err;
  }
  try {
    return await onStore({ dataDir }, action);
  } finally {
    await lock.release();
  }
}

// The action done directly on the store that `where` names.
async function onStore(
  where: { dataDir: string } | { databaseUrl: string },
  action: KeysAction,
): Promise<string> {
  const stackhooks = await createStackhooks({ ...where, adapters: { logger: silentLogger } });
  try {
    switch (action.kind) {
      case 'create':
        return formatIssued(await stackhooks.keys.issue(action.owner));
      case 'list':
        return formatList(await stackhooks.keys.list());
      case 'revoke':
        await stackhooks.keys.revoke(action.id);
        return `revoked ${action.id}`;
    }
  } finally {
    await stackhooks.close();
  }
}

type KeyView = { id: string; owner: string; created_at: number; revoked_at?: number | null };

function formatIssued(key: KeyView & { key: string }): string {
  return `created key ${key.id} for owner ${key.owner} (shown only this once):\n\n  ${key.key}\n`;
}

function formatList(keys: KeyView[]): string {
  if (keys.length === 0) return 'no keys';
  const rows = keys.map((k) => {
    const created = new Date(k.created_at * 1000).toISOString();
    const state = k.revoked_at == null ? 'active' : `revoked ${new Date(k.revoked_at * 1000).toISOString()}`;
    return `${k.id}\t${k.owner}\t${created}\t${state}`;
  });
  return ['id\towner\tcreated\tstate', ...rows].join('\n');
}

async function viaAdminSocket(dataDir: string, action: KeysAction): Promise<string> {
  const socketPath = adminSocketPath(dataDir);
  switch (action.kind) {
    case 'create':
      return formatIssued(await call(socketPath, 'POST', '/keys', { owner: action.owner }));
    case 'list':
      return formatList(await call(socketPath, 'GET', '/keys'));
    case 'revoke':
      await call(socketPath, 'DELETE', `/keys/${encodeURIComponent(action.id)}`);
      return `revoked ${action.id}`;
  }
}

function call<T>(socketPath: string, method: string, path: string, body?: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    const req = request(
      { socketPath, method, path, headers: { 'content-type': 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const parsed = text ? (JSON.parse(text) as T & { message?: string }) : (undefined as T);
          if ((res.statusCode ?? 500) >= 400)
            reject(new Error((parsed as { message?: string })?.message ?? text));
          else resolve(parsed);
        });
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}
