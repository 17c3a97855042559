// Fresh schemas of the test database for the Postgres bench: a URL naming a new schema, and its removal.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The database the bench uses (trust auth on the local server). */
export const BENCH_DATABASE_URL =
  process.env.STACKHOOKS_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A URL naming a schema no one has used (`bench_<random>`); stackhooks creates and migrates it. */
export function freshBenchSchema(): { url: string; schema: string } {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const url = new URL(BENCH_DATABASE_URL);
  url.searchParams.set('schema', schema);
  return { url: url.toString(), schema };
}

/** Drop a bench schema and everything in it. */
export async function dropBenchSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: BENCH_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** Whether the database answers within two seconds. */
export async function benchDatabaseAnswers(): Promise<boolean> {
  const client = new pg.Client({ connectionString: BENCH_DATABASE_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}
