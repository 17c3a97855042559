import type { Database } from './database.js';

/**
 * The network the schema serves: the one on record, or `network` when none is (a new schema, or
 * one from before the record), which is then recorded. `recorded` says which of the two happened;
 * the caller refuses a start whose network differs.
 */
export async function recordStoreNetwork(
  db: Database,
  network: string,
  now: number,
): Promise<{ network: string; recorded: boolean }> {
  const inserted = await db.pool.query<{ network: string }>(
    `INSERT INTO store_network (network, recorded_at) VALUES ($1, $2)
     ON CONFLICT (only_row) DO NOTHING RETURNING network`,
    [network, now],
  );
  if (inserted.rows.length > 0) return { network, recorded: true };
  // Another start recorded it first (maybe a moment ago): a new statement sees its row.
  const { rows } = await db.pool.query<{ network: string }>('SELECT network FROM store_network');
  return { network: rows[0].network, recorded: false };
}
