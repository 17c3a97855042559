import { isFinished, type StoredBackfill } from '../../core/backfill/backfill.js';
import type { BackfillStore } from '../../core/ports/backfill-store.js';
import type { Database } from './database.js';

/** Finished backfills kept per hook; older ones are deleted when a new one is stored. */
export const FINISHED_BACKFILLS_KEPT = 100;

/** Backfills in Postgres: a row each, changed under a row lock so a cancel and a scan's progress do not race. */
export class PgBackfillStore implements BackfillStore {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  async create(backfill: StoredBackfill): Promise<void> {
    await this.#db.transaction(async (client) => {
      await client.query(
        `INSERT INTO backfills (id, hook_uuid, finished, created_at, record) VALUES ($1, $2, $3, $4, $5)`,
        [
          backfill.id,
          backfill.hook_uuid,
          isFinished(backfill),
          backfill.created_at,
          JSON.stringify(backfill),
        ],
      );
      await client.query(
        `DELETE FROM backfills WHERE id IN (
           SELECT id FROM backfills WHERE hook_uuid = $1 AND finished
           ORDER BY created_at DESC, id DESC OFFSET $2)`,
        [backfill.hook_uuid, FINISHED_BACKFILLS_KEPT],
      );
    });
  }

  async get(hookUuid: string, id: string): Promise<StoredBackfill | undefined> {
    const { rows } = await this.#db.pool.query<{ record: StoredBackfill }>(
      'SELECT record FROM backfills WHERE id = $1 AND hook_uuid = $2',
      [id, hookUuid],
    );
    return rows[0]?.record;
  }

  async list(hookUuid: string): Promise<StoredBackfill[]> {
    const { rows } = await this.#db.pool.query<{ record: StoredBackfill }>(
      'SELECT record FROM backfills WHERE hook_uuid = $1 ORDER BY created_at DESC, id DESC',
      [hookUuid],
    );
    return rows.map((row) => row.record);
  }

  async unfinished(): Promise<StoredBackfill[]> {
    const { rows } = await this.#db.pool.query<{ record: StoredBackfill }>(
      'SELECT record FROM backfills WHERE NOT finished ORDER BY created_at, id',
    );
    return rows.map((row) => row.record);
  }

  async update(
    id: string,
    change: (current: StoredBackfill) => StoredBackfill,
  ): Promise<StoredBackfill | undefined> {
    return this.#db.transaction(async (client) => {
      const { rows } = await client.query<{ record: StoredBackfill }>(
        'SELECT record FROM backfills WHERE id = $1 FOR UPDATE',
        [id],
      );
      if (rows.length === 0) return undefined;
      const next = change(rows[0].record);
      await client.query('UPDATE backfills SET finished = $2, record = $3 WHERE id = $1', [
        id,
        isFinished(next),
        JSON.stringify(next),
      ]);
      return next;
    });
  }
}
