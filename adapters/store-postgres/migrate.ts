import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
/** Any fixed number: the lock only keeps two processes from migrating one schema at once. */
const MIGRATION_LOCK = 7_406_001;

/** A migration file: `NNN_name.sql`, applied once, in number order. */
export type Migration = { version: number; name: string; sql: string };

/** The migrations shipped with this version, in order. */
export async function listMigrations(): Promise<Migration[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f)).sort();
  return Promise.all(
    files.map(async (file) => ({
      version: Number(file.slice(0, 3)),
      name: file.slice(4, -4),
      sql: await readFile(`${MIGRATIONS_DIR}${file}`, 'utf8'),
    })),
  );
}

/**
 * Apply every migration the schema has not had, each in its own transaction, under an advisory
 * lock so concurrent starts do not race. Returns the versions applied now.
 */
export async function migrate(db: Database): Promise<number[]> {
  const migrations = await listMigrations();
  return db.transaction(async (client) => {
    await client.query(`SET LOCAL search_path TO "${db.schema}"`);
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [MIGRATION_LOCK, db.schema]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = new Set(
      (await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map(
        (r) => r.version,
      ),
    );
    const applied: number[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.version);
    }
    return applied;
  });
}
