// Fresh schemas of the test database for the Postgres bench: the test suites' own helpers, plus
// the removal of a schema the bench's stackhooks created and migrated itself.
import pg from 'pg';
import { freshSchemaUrl, postgresAvailable, TEST_DATABASE_URL } from '../../test/support/postgres.js';

/** A URL naming a schema no one has used (`bench_…`); stackhooks creates and migrates it. */
export function freshBenchSchema(): { url: string; schema: string } {
  const url = freshSchemaUrl('bench');
  return { url, schema: new URL(url).searchParams.get('schema')! };
}

/** Drop a bench schema and everything in it. */
export async function dropBenchSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** Whether the database answers within two seconds. */
export const benchDatabaseAnswers = postgresAvailable;
