import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate } from '../../adapters/store-postgres/migrate.js';
import { openDatabase, type Database } from '../../adapters/store-postgres/database.js';

/** Where the Postgres suites connect: `STACKHOOKS_TEST_DATABASE_URL`, else the machine's local server. */
export const TEST_DATABASE_URL =
  process.env.STACKHOOKS_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A URL for a fresh schema of the test database, unique to this call. */
export function freshSchemaUrl(prefix = 't'): string {
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('schema', `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`);
  return url.toString();
}

/** Drop the schema a `freshSchemaUrl` names, with everything in it. */
export async function dropSchema(url: string): Promise<void> {
  const schema = new URL(url).searchParams.get('schema')!;
  const base = new URL(url);
  base.searchParams.delete('schema');
  const client = new pg.Client({ connectionString: base.toString() });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
}

/** A migrated database in a schema of its own; `drop()` removes the schema and closes the pool. */
export async function openTestDatabase(
  prefix = 't',
): Promise<Database & { url: string; drop(): Promise<void> }> {
  const url = freshSchemaUrl(prefix);
  const db = await openDatabase(url);
  await migrate(db);
  return {
    ...db,
    url,
    async drop() {
      await db.pool.query(`DROP SCHEMA IF EXISTS "${db.schema}" CASCADE`);
      await db.close();
    },
  };
}

/**
 * A migrated database of its own on the test server (created from template0, so no session on
 * template1 blocks it); `drop()` closes the pool and drops the database. For a test that other
 * sessions of database `test` disturb: VACUUM marks pages all-visible only past the oldest
 * snapshot held in the same database.
 */
export async function openDatabaseOfItsOwn(
  prefix = 'd',
): Promise<Database & { url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  await onTestServer(`CREATE DATABASE "${name}" TEMPLATE template0`);
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  const db = await openDatabase(url.toString());
  try {
    await migrate(db);
  } catch (err) {
    await db.close();
    await onTestServer(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    throw err;
  }
  return {
    ...db,
    url: url.toString(),
    async drop() {
      await db.close();
      await onTestServer(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

// One statement on a connection of its own to the test database (CREATE/DROP DATABASE cannot run
// in a pool's transaction block, nor on a connection to the database dropped).
async function onTestServer(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Whether the test database answers; suites that need it say so when it does not. */
export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}
