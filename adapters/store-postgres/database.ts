import pg from 'pg';
import { asStoreFailure, isConnectionFailure } from './connection-failure.js';
import { ConnectionHealth } from './connection-health.js';
import { databaseAddress, waitForDatabase, type DatabaseWaitOptions } from './wait-for-database.js';

/** A pool bound to one schema, so many stackhooks instances (or test runs) can share one database. */
export type Database = {
  pool: pg.Pool;
  schema: string;
  /** Whether the database answers, with counters of lost connections and outages. */
  health: ConnectionHealth;
  /** Run `work` in one transaction on one connection; rolled back if it throws. */
  transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

/** How to open a database; every field has a default. */
export type OpenDatabaseOptions = Partial<DatabaseWaitOptions> & {
  /** Connections in the pool (default 10). */
  max?: number;
};

/** How long a new connection may take before the attempt counts as failed. */
const CONNECT_TIMEOUT_MS = 10_000;
/** Idle time before TCP keepalives probe a connection, so a vanished server is noticed. */
const KEEPALIVE_DELAY_MS = 10_000;

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** The schema named in the URL (`?schema=name`, default `public`). */
export function schemaOf(url: string): string {
  const schema = new URL(url).searchParams.get('schema') ?? 'public';
  if (!SCHEMA_NAME.test(schema)) throw new Error(`schema "${schema}" must be a lowercase SQL identifier`);
  return schema;
}

/**
 * Connect to `url` (a `postgres://` URL; `?schema=name` selects a schema, created if missing). Every
 * connection of the pool has its `search_path` set to that schema. A database that cannot be
 * reached yet is waited for up to `waitMs` (default 0: fail at once). Afterwards a lost or refused
 * connection never ends the process: the failing call rejects with `storeUnavailable`, the pool
 * replaces the connection, and `health` tells when the database is unreachable and when it is back.
 */
export async function openDatabase(url: string, options: OpenDatabaseOptions = {}): Promise<Database> {
  const schema = schemaOf(url);
  const clean = new URL(url);
  clean.searchParams.delete('schema');
  const pool = new pg.Pool({
    connectionString: clean.toString(),
    max: options.max ?? 10,
    // Every connection starts in the schema, before any query of ours runs.
    options: `-c search_path=${schema}`,
    // Names the sessions in pg_stat_activity (a URL's own application_name wins).
    application_name: `stackhooks ${schema}`,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
  });
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  // Asked on a new connection: an idle one of the pool may be one the server has just ended.
  const health = new ConnectionHealth(() =>
    answersOnNewConnection({
      connectionString: clean.toString(),
      application_name: `stackhooks probe ${schema}`,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    }),
  );
  // An idle connection that dies (a restart, a killed backend) must not crash the process.
  pool.on('error', (err) => health.failed(err));
  // Every query of every adapter passes here, so a lost connection is reported the same way everywhere.
  pool.query = ((...args: unknown[]) => {
    const result = query(...args);
    if (!(result instanceof Promise)) return result;
    return result.then(
      (value: unknown) => {
        health.succeeded();
        return value;
      },
      (err: unknown) => {
        health.failed(err);
        throw asStoreFailure(err);
      },
    );
  }) as typeof pool.query;
  try {
    const createSchema = () => query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`) as Promise<unknown>;
    await waitForDatabase(databaseAddress(url), createSchema, {
      waitMs: options.waitMs ?? 0,
      onWaiting: options.onWaiting,
    });
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw err;
  }
  return {
    pool,
    schema,
    health,
    transaction: (work) => inTransaction(pool, health, work),
    async close() {
      health.close();
      await pool.end();
    },
  };
}

/** Connect afresh and ask one trivial question. */
async function answersOnNewConnection(config: pg.ClientConfig): Promise<void> {
  const client = new pg.Client(config);
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function inTransaction<T>(
  pool: pg.Pool,
  health: ConnectionHealth,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (err) {
    health.failed(err);
    throw asStoreFailure(err);
  }
  // A checked-out connection has no listener of the pool's: its death between two statements would
  // otherwise be an unhandled 'error' event, which ends the process.
  let lost: Error | undefined;
  const onError = (err: Error) => (lost ??= err);
  client.on('error', onError);
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    health.succeeded();
    return result;
  } catch (err) {
    if (lost === undefined && !isConnectionFailure(err))
      await client.query('ROLLBACK').catch(() => undefined);
    broken = lost ?? (isConnectionFailure(err) ? (err as Error) : undefined);
    if (broken) health.failed(broken);
    throw asStoreFailure(broken && !isConnectionFailure(err) ? broken : err);
  } finally {
    client.off('error', onError);
    // A broken connection is closed, not handed to the next caller.
    client.release(broken ?? lost);
  }
}
