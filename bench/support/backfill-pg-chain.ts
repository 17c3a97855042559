// The backfill bench's chain in PostgreSQL: the same synthetic blocks as the embedded archive
// (backfill-chain.ts), put in batches into a schema of the test database that is kept between runs
// (`bench_backfill_<blocks>_<every>`, with a marker table once complete), so reruns reuse it. Drop
// the schema to build it again.
import pg from 'pg';
import { migrate, openDatabase, PgBlockStore } from '../../adapters/store-postgres/index.js';
import { TEST_DATABASE_URL } from '../../test/support/postgres.js';
import { syntheticBlocks } from './backfill-chain.js';

const BATCH = 1000;

/** The cached chain: the URL the server is given (its schema named in it) and the schema. */
export type PgBackfillChain = { url: string; schema: string };

/** The schema holding `blocks` synthetic blocks (heights 1..blocks), built unless a complete build is there. */
export async function pgBackfillChain(
  blocks: number,
  every: number,
  progress: (line: string) => void,
): Promise<PgBackfillChain> {
  const schema = `bench_backfill_${blocks}_${every}`;
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('schema', schema);
  const chain = { url: url.toString(), schema };
  if (await builtAlready(schema)) return chain;
  await query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  const db = await openDatabase(chain.url);
  try {
    await migrate(db);
    const store = new PgBlockStore(db);
    const blockAt = await syntheticBlocks(every);
    const start = performance.now();
    for (let from = 1; from <= blocks; from += BATCH) {
      const to = Math.min(blocks, from + BATCH - 1);
      await store.putMany(Array.from({ length: to - from + 1 }, (_, i) => blockAt(from + i)));
      if (Math.floor(to / 100_000) > Math.floor((from - 1) / 100_000)) {
        progress(`built ${to} blocks in ${((performance.now() - start) / 1000).toFixed(0)} s`);
      }
    }
    await db.pool.query('CREATE TABLE bench_backfill_built (blocks integer, every integer)');
    await db.pool.query('INSERT INTO bench_backfill_built VALUES ($1, $2)', [blocks, every]);
  } finally {
    await db.close();
  }
  return chain;
}

/** Flush the database's dirty pages now, so that a checkpoint does not fall inside a measurement. */
export async function checkpointDatabase(): Promise<void> {
  await query('CHECKPOINT');
}

async function builtAlready(schema: string): Promise<boolean> {
  const { rows } = await query(
    `SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'bench_backfill_built'`,
    [schema],
  );
  return rows.length > 0;
}

async function query(text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}
