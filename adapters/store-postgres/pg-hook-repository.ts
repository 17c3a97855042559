import type { LiveProgress, LiveStep } from '../../core/hooks/live-progress.js';
import { isListFiltered, matchesListFilter, type HookListFilter } from '../../core/hooks/list-filter.js';
import type { HookStatusValue, StoredHook } from '../../core/hooks/record.js';
import type {
  HookPage,
  HookRepository,
  HookSelection,
  HookStatusCount,
} from '../../core/ports/hook-repository.js';
import type { Database } from './database.js';
import { DefinitionCache } from './definition-cache.js';
import { HookVacuum } from './hook-vacuum.js';
import {
  HOOKS_WITH_PROGRESS,
  LISTING_ORDER,
  LOCK_HOOKS,
  READ_COLUMNS,
  progressOf,
  rebasedOf,
  toHook,
  wholeChanges,
  writeWhole,
  type HookRow,
  type ProgressRow,
} from './hook-rows.js';
import { writeLiveStep } from './live-step-writes.js';
import { StepRowCache } from './step-row-cache.js';

/** The SQLSTATE `insert_hook` refuses an insert with when the owner is over the limit. */
const OVER_LIMIT = 'SH403';

/**
 * Hooks in Postgres. Changes are read-modify-write transactions that lock the rows first
 * (`SELECT … FOR UPDATE`), so concurrent changes from any number of processes each see the latest
 * version. Every hook handed out is parsed from its row, so no caller shares an object with another,
 * and shows its counters as of the live stream's progress (`withLiveProgress`), in every process.
 */
export class PgHookRepository implements HookRepository {
  /** Definitions live steps read, reused while their hook rows stay unwritten. */
  readonly #definitions = new DefinitionCache();
  readonly #stepRows = new StepRowCache();
  /** Keeps the table's pages all-visible, which deep pages of a listing need (see HookVacuum). */
  readonly #vacuum: HookVacuum;

  constructor(private readonly db: Database) {
    this.#vacuum = new HookVacuum(db);
  }

  /** Store a new hook unless its owner already has `maxPerOwner`; a repeated uuid is an error. */
  async insert(hook: StoredHook, maxPerOwner: number): Promise<StoredHook | undefined> {
    // One statement (migration 015): the insert's trigger counts the hook on the owner's row, which
    // concurrent inserts by the owner (from any process) then wait for until this commits, so each
    // reads a count that includes the ones before it; the check costs one row, whatever the owner holds.
    return this.db.pool
      .query('SELECT insert_hook($1, $2, $3, $4, $5, $6, $7)', [
        hook.uuid,
        hook.owner,
        hook.created_at_ms,
        JSON.stringify(hook.definition),
        JSON.stringify(hook.status),
        hook.delivery ? JSON.stringify(hook.delivery) : null,
        maxPerOwner,
      ])
      .then(
        () => {
          this.#vacuum.written(1);
          // This process holds no hooks: the hook as stored is the one given.
          return hook;
        },
        (err: unknown) => {
          if ((err as { code?: unknown })?.code === OVER_LIMIT) return undefined;
          throw err;
        },
      );
  }

  /** One owner's hook, or undefined. */
  async get(owner: string, uuid: string): Promise<StoredHook | undefined> {
    const { rows } = await this.db.pool.query<HookRow>(
      `SELECT ${READ_COLUMNS} FROM ${HOOKS_WITH_PROGRESS} WHERE uuid = $1 AND owner = $2`,
      [uuid, owner],
    );
    return rows.length === 0 ? undefined : toHook(rows[0]);
  }

  /** A hook whoever owns it, for a process told by the change feed that it changed; undefined when gone. */
  async getByUuid(uuid: string): Promise<StoredHook | undefined> {
    const { rows } = await this.db.pool.query<HookRow>(
      `SELECT ${READ_COLUMNS} FROM ${HOOKS_WITH_PROGRESS} WHERE uuid = $1`,
      [uuid],
    );
    return rows.length === 0 ? undefined : toHook(rows[0]);
  }

  /** The hooks with these uuids that exist, whoever owns them, in one statement. */
  async getByUuids(uuids: readonly string[]): Promise<StoredHook[]> {
    if (uuids.length === 0) return [];
    const { rows } = await this.db.pool.query<HookRow>({
      // Named: a worker runs it for every batch it sends, so each connection plans it once.
      name: 'stackhooks_hooks_by_uuids',
      text: `SELECT ${READ_COLUMNS} FROM ${HOOKS_WITH_PROGRESS} WHERE uuid = ANY($1::text[])`,
      values: [[...new Set(uuids)]],
    });
    return rows.map(toHook);
  }

  /** A page of one owner's hooks that pass the filter, oldest first, with their total. */
  async list(owner: string, offset: number, limit: number, filter: HookListFilter = {}): Promise<HookPage> {
    if (isListFiltered(filter)) return this.#filteredList(owner, offset, limit, filter);
    // The page's keys come from the owner's index alone (an index-only scan skips the offset without
    // reading the rows it passes), and the total from the owner's count row, in the same snapshot.
    const { rows } = await this.db.pool.query<HookRow & { total: number }>(
      `SELECT ${READ_COLUMNS}, (SELECT hooks FROM hook_counts WHERE owner = $1) AS total
       FROM (SELECT uuid FROM hooks WHERE owner = $1 ${LISTING_ORDER} OFFSET $2 LIMIT $3) AS page
       JOIN hooks USING (uuid) LEFT JOIN hook_occurrences o USING (uuid) CROSS JOIN live_stream
       ${LISTING_ORDER}`,
      [owner, Math.max(0, offset), Math.max(0, limit)],
    );
    if (rows.length > 0) return { total: rows[0].total, results: rows.map(toHook) };
    const counted = await this.db.pool.query<{ hooks: number }>(
      'SELECT hooks FROM hook_counts WHERE owner = $1',
      [owner],
    );
    return { total: counted.rows[0]?.hooks ?? 0, results: [] };
  }

  /**
   * The status a filter names is the one shown, derived from the live progress, so the owner's rows
   * are read and matched here (an owner holds at most the configured thousands of hooks).
   */
  async #filteredList(
    owner: string,
    offset: number,
    limit: number,
    filter: HookListFilter,
  ): Promise<HookPage> {
    const { rows } = await this.db.pool.query<HookRow>(
      `SELECT ${READ_COLUMNS} FROM ${HOOKS_WITH_PROGRESS} WHERE owner = $1 ${LISTING_ORDER}`,
      [owner],
    );
    const passing = rows.map(toHook).filter((hook) => matchesListFilter(hook, filter));
    const start = Math.max(0, offset);
    return { total: passing.length, results: passing.slice(start, start + Math.max(0, limit)) };
  }

  /** Replace one hook by `change(latest)`; the change may not alter its uuid, owner or creation time. */
  async update(
    owner: string,
    uuid: string,
    change: (hook: StoredHook) => StoredHook,
  ): Promise<StoredHook | undefined> {
    const updated = await this.db.transaction(async (client) => {
      const { rows } = await client.query<HookRow>(
        `SELECT ${READ_COLUMNS} FROM ${HOOKS_WITH_PROGRESS} WHERE uuid = $1 AND owner = $2 ${LOCK_HOOKS}`,
        [uuid, owner],
      );
      if (rows.length === 0) return undefined;
      const writes = wholeChanges(rows, change, rebasedOf);
      await writeWhole(client, writes);
      return writes[0]?.hook;
    });
    if (updated) this.#vacuum.written(1);
    return updated;
  }

  /** Apply `change` to every selected hook in one transaction; if it throws for any, none is changed. */
  async updateMany(
    selection: HookSelection,
    change: (hook: StoredHook) => StoredHook | undefined,
  ): Promise<StoredHook[]> {
    const { owner, uuids, webhook_url: url, statuses } = selection;
    // A null parameter leaves its criterion out; an empty list matches nothing, as it should. The
    // status is matched as the hook is shown (a live hook's stored `new` may read `streaming`), so after
    // the rows are read: the owner's other rows stay locked until the end of this short transaction.
    const updated = await this.db.transaction(async (client) => {
      const { rows } = await client.query<HookRow>(
        `SELECT ${READ_COLUMNS} FROM ${HOOKS_WITH_PROGRESS}
         WHERE owner = $1
           AND ($2::text[] IS NULL OR uuid = ANY ($2))
           AND ($3::text IS NULL OR webhook_url = $3)
         ${LISTING_ORDER} ${LOCK_HOOKS}`,
        [owner, uuids ?? null, url ?? null],
      );
      const selected =
        statuses === undefined ? rows : rows.filter((row) => statuses.includes(toHook(row).status.status));
      const writes = wholeChanges(selected, change, rebasedOf);
      await writeWhole(client, writes);
      return writes.map(({ hook }) => hook);
    });
    this.#vacuum.written(updated.length);
    return updated;
  }

  /** How far the live stream has come. */
  async liveProgress(): Promise<LiveProgress> {
    const { rows } = await this.db.pool.query<ProgressRow>(
      'SELECT evaluated, last_height, last_at, last_event_id FROM live_stream',
    );
    return progressOf(rows[0]);
  }

  /**
   * Move the live stream by `step` and store what `change` makes of the named hooks (any owner's;
   * unknown ones are skipped), in one transaction: the progress row, then those hooks, most of them
   * by their occurrences alone (`writeLiveStep`). The transaction starts only once `after` has
   * resolved: held open beside the enqueue, its locks and the enqueue's commit contended with the
   * observer's appends (a soak's observer p99 went from under 50 ms to 59–140 ms).
   */
  async recordLiveStep(
    step: LiveStep,
    uuids: readonly string[],
    change: (hook: StoredHook) => StoredHook | undefined,
    after?: Promise<unknown>,
  ): Promise<StoredHook[]> {
    // Not stored before the step's payloads are: a step stored without them would be lost on a
    // crash (the chain event is processed again, but a hook it expired is no longer matched).
    await after;
    const written = await this.db.transaction((client) =>
      writeLiveStep(client, step, uuids, change, { definitions: this.#definitions, rows: this.#stepRows }),
    );
    // Most of these changed only their occurrence rows, so this counts high: a vacuum of pages
    // that stayed all-visible reads little more than the visibility map.
    this.#vacuum.written(written.length);
    return written;
  }

  /** Remove one hook; false when the owner has no such hook. */
  async delete(owner: string, uuid: string): Promise<boolean> {
    const { rowCount } = await this.db.pool.query('DELETE FROM hooks WHERE uuid = $1 AND owner = $2', [
      uuid,
      owner,
    ]);
    if (rowCount !== 1) return false;
    this.#definitions.forget(uuid);
    this.#stepRows.forget(uuid);
    this.#vacuum.written(1);
    return true;
  }

  /** Every hook of every owner, oldest first. */
  async listAll(): Promise<StoredHook[]> {
    const { rows } = await this.db.pool.query<HookRow>(
      `SELECT ${READ_COLUMNS} FROM ${HOOKS_WITH_PROGRESS} ${LISTING_ORDER}`,
    );
    return rows.map(toHook);
  }

  /** Hooks by status and `enabled`, counted by the database. */
  async statusCounts(): Promise<HookStatusCount[]> {
    // As `withLiveProgress` shows them: a live hook the stream has moved past reads `streaming`, or
    // `expired` and disabled when a limit was reached; only hooks with a limit are read to tell.
    const { rows } = await this.db.pool.query<{
      status: HookStatusValue | 'limited';
      enabled: boolean;
      count: string;
    }>(
      `SELECT CASE WHEN ${GAINING} THEN CASE WHEN ${LIMITED} THEN 'limited' ELSE 'streaming' END
                ELSE status_value END AS status,
              ${GAINING} OR (status->>'enabled')::boolean AS enabled, count(*) AS count
       FROM hooks CROSS JOIN live_stream GROUP BY 1, 2`,
    );
    const counts = new Map<string, HookStatusCount>();
    const tally = (status: HookStatusValue, enabled: boolean, count: number) => {
      const key = `${status}:${enabled}`;
      const entry = counts.get(key) ?? { status, enabled, count: 0 };
      entry.count += count;
      counts.set(key, entry);
    };
    for (const row of rows) if (row.status !== 'limited') tally(row.status, row.enabled, Number(row.count));
    if (rows.some((row) => row.status === 'limited')) {
      const limited = await this.db.pool.query<HookRow>(
        `SELECT ${READ_COLUMNS} FROM ${HOOKS_WITH_PROGRESS} WHERE ${GAINING} AND ${LIMITED}`,
      );
      for (const { status } of limited.rows.map(toHook)) tally(status.status, status.enabled, 1);
    }
    return [...counts.values()];
  }
}

/** A live hook (`isLive`) the stream has evaluated blocks for since its row was written. */
const GAINING = `(live_base < live_stream.evaluated AND (status->>'enabled')::boolean
  AND status_value <> 'expired' AND NOT coalesce(delivery ? 'resuming', false))`;
/** A hook with a limit that may expire it (`hasReachedLimit`). */
const LIMITED = `(definition->'options' ?| array['expire_after_evaluations', 'expire_after_occurrences'])`;
