import pg from 'pg';

/** A pool bound to one schema, so many stackhooks instances (or test runs) can share one database. */
export type Database = {
  pool: pg.Pool;
  schema: string;
  /** Run `work` in one transaction on one connection; rolled back if it throws. */
  transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** The schema named in the URL (`?schema=name`, default `public`). */
export function schemaOf(url: string): string {
  const schema = new URL(url).searchParams.get('schema') ?? 'public';
  if (!SCHEMA_NAME.test(schema)) throw new Error(`schema "${schema}" must be a lowercase SQL identifier`);
  return schema;
}

/**
 * Connect to `url` (a `postgres://` URL; `?schema=name` selects a schema, created if missing). Every
 * connection of the pool has its `search_path` set to that schema.
 */
export async function openDatabase(url: string, options: { max?: number } = {}): Promise<Database> {
  const schema = schemaOf(url);
  const clean = new URL(url);
  clean.searchParams.delete('schema');
  const pool = new pg.Pool({
    connectionString: clean.toString(),
    max: options.max ?? 10,
    // Every connection starts in the schema, before any query of ours runs.
    options: `-c search_path=${schema}`,
  });
  // An idle client that errors (the server restarting) must not crash the process.
  pool.on('error', () => undefined);
  await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  return {
    pool,
    schema,
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(client);
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
