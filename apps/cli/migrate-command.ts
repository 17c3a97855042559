import { listMigrations, migrate } from '../../adapters/store-postgres/migrate.js';
import { openDatabase } from '../../adapters/store-postgres/database.js';

/** `stackhooks migrate`: apply the pending migrations and say which. */
export async function runMigrateCommand(url: string): Promise<string> {
  const db = await openDatabase(url);
  try {
    const applied = await migrate(db);
    const all = await listMigrations();
    if (applied.length === 0)
      return `schema ${db.schema} is up to date (version ${all.at(-1)?.version ?? 0})`;
    return `schema ${db.schema}: applied ${applied.map((v) => String(v).padStart(3, '0')).join(', ')}`;
  } finally {
    await db.close();
  }
}
