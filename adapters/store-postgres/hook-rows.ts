import type pg from 'pg';
import { rebase, withLiveProgress, type LiveProgress } from '../../core/hooks/live-progress.js';
import type { StoredHook } from '../../core/hooks/record.js';

/** The columns a StoredHook is stored in, but its definition. */
const STATE_COLUMNS = 'uuid, owner, created_at_ms, status, delivery';
/** The occurrences a live step counted beside the row (migration 016), null when it counted none since the row was written. */
const OCCURRENCE_COLUMNS =
  'o.occurrence_count AS o_count, o.last_occurrence_at AS o_at, o.last_occurrence_block_height AS o_height';
/** What a hook read selects but the definition and the live stream's progress (when the caller has both). */
export const HOOK_STATE_COLUMNS = `${STATE_COLUMNS}, live_base, ${OCCURRENCE_COLUMNS}`;
/** What a hook read selects without the live stream's progress. */
const HOOK_READ_COLUMNS = `${HOOK_STATE_COLUMNS}, definition`;
/**
 * What every other read selects: the hook row, its occurrences and the live stream's progress, read in
 * one statement so the counters shown are derived from one snapshot of all three.
 */
export const READ_COLUMNS = `${HOOK_READ_COLUMNS}, evaluated, last_height, last_at`;
/** The hooks with their occurrences, without the progress. */
export const HOOKS_WITH_OCCURRENCES = 'hooks LEFT JOIN hook_occurrences o USING (uuid)';
/** The hooks with their occurrences and the progress. */
export const HOOKS_WITH_PROGRESS = `${HOOKS_WITH_OCCURRENCES} CROSS JOIN live_stream`;
/** Row locks of a read-modify-write: the hook rows only, never the progress row the live step moves. */
export const LOCK_HOOKS = 'FOR UPDATE OF hooks';
/**
 * Every locking read orders by this one total order, so two bulk changes that overlap take their
 * row locks in the same order and cannot deadlock.
 */
export const LISTING_ORDER = 'ORDER BY created_at_ms, uuid';

/** The live stream's row; bigint columns arrive as strings. */
export type ProgressRow = {
  evaluated: string;
  last_height: string | null;
  last_at: string | null;
  /** Read only where the event matters (the progress on its own), so absent beside a hook. */
  last_event_id?: string | null;
};

/** A hook row without the progress (as `HOOK_STATE_COLUMNS` and the definition read it). */
export type StoredRow = {
  uuid: string;
  owner: string;
  created_at_ms: string;
  definition: StoredHook['definition'];
  status: StoredHook['status'];
  delivery: StoredHook['delivery'] | null;
  live_base: string;
  o_count: string | null;
  o_at: string | null;
  o_height: string | null;
};

/** A hook row with the progress read beside it, as `READ_COLUMNS` reads it. */
export type HookRow = StoredRow & ProgressRow;

/** The live stream's progress from its row (or the same columns of a hook read beside it). */
export function progressOf(row: ProgressRow): LiveProgress {
  return {
    // Positions and heights stay far inside the safe integer range.
    evaluated: Number(row.evaluated),
    last_height: row.last_height === null ? null : Number(row.last_height),
    last_at: row.last_at === null ? null : Number(row.last_at),
    ...(row.last_event_id != null && { event_id: Number(row.last_event_id) }),
  };
}

/**
 * A hook rebuilt from its row, its counters as of `progress`; pg parses jsonb afresh for every row,
 * so the objects are the caller's.
 */
export function hookOfRow(row: StoredRow, progress: LiveProgress): StoredHook {
  const status =
    row.o_count === null
      ? row.status
      : {
          ...row.status,
          occurrence_count: Number(row.o_count),
          last_occurrence_at: row.o_at === null ? null : Number(row.o_at),
          last_occurrence_block_height: row.o_height === null ? null : Number(row.o_height),
        };
  const stored: StoredHook = {
    uuid: row.uuid,
    owner: row.owner,
    // bigint arrives as a string; creation times in milliseconds are far inside the safe integer range.
    created_at_ms: Number(row.created_at_ms),
    definition: row.definition,
    status,
    ...(row.delivery && { delivery: row.delivery }),
  };
  return withLiveProgress(stored, Number(row.live_base), progress);
}

/** A hook from a row read with the progress beside it. */
export function toHook(row: HookRow): StoredHook {
  return hookOfRow(row, progressOf(row));
}

/** The stream position a change made from `toHook(row)` is exact at. */
export function rebasedOf(row: HookRow): number {
  return rebase(Number(row.live_base), progressOf(row));
}

/** The change's result as the table will hold it; refused when it moved the hook's identity or order. */
export function asStored(current: StoredRow, next: StoredHook): StoredHook {
  assertSameIdentity(current, next);
  // A JSON round trip: what a later read returns (jsonb drops undefined fields), and a fresh object.
  return JSON.parse(JSON.stringify(next)) as StoredHook;
}

/** Refuse a change that moved the hook's uuid, owner or creation time. */
export function assertSameIdentity(current: StoredRow, next: StoredHook): void {
  // Read from the row, not the object the change got: a change may edit its argument.
  const identity = { uuid: current.uuid, owner: current.owner, created_at_ms: Number(current.created_at_ms) };
  for (const field of ['uuid', 'owner', 'created_at_ms'] as const) {
    if (next?.[field] !== identity[field]) {
      throw new Error(`a hook change may not alter ${field} (hook ${current.uuid})`);
    }
  }
}

/** A hook to write whole, exact at stream position `liveBase`; `sameDefinition` spares sending the definition. */
export type WholeWrite = { hook: StoredHook; liveBase: number; sameDefinition: boolean };

/**
 * Run `change` on each locked row (as `toHook` shows it) and return what to write back, each at stream
 * position `baseOf(row)`. Every change is computed before anything is written, so a throw part-way
 * (which rolls the transaction back anyway) never leaves a partial batch.
 */
export function wholeChanges(
  rows: readonly HookRow[],
  change: (hook: StoredHook) => StoredHook | undefined,
  baseOf: (row: HookRow) => number,
): WholeWrite[] {
  const writes: WholeWrite[] = [];
  for (const row of rows) {
    const given = toHook(row);
    const definition = JSON.stringify(given.definition);
    const next = change(given);
    if (next === undefined) continue;
    const hook = asStored(row, next);
    writes.push({
      hook,
      liveBase: baseOf(row),
      sameDefinition: JSON.stringify(hook.definition) === definition,
    });
  }
  return writes;
}

/**
 * Write hooks whole in one statement. Their occurrences go back into `status`, so a row of counted
 * occurrences beside a written hook is removed by the same statement. Counters are what most changes
 * move: an unchanged definition, the bulk of a row, is neither sent nor rewritten.
 */
export async function writeWhole(client: pg.ClientBase, writes: readonly WholeWrite[]): Promise<void> {
  if (writes.length === 0) return;
  await client.query(
    `WITH changed AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb)
         AS c (uuid text, definition jsonb, status jsonb, delivery jsonb, live_base bigint)),
     folded AS (DELETE FROM hook_occurrences o USING changed WHERE o.uuid = changed.uuid)
     UPDATE hooks SET definition = COALESCE(changed.definition, hooks.definition), status = changed.status,
       delivery = changed.delivery, live_base = changed.live_base
     FROM changed WHERE hooks.uuid = changed.uuid`,
    [
      JSON.stringify(
        writes.map(({ hook: { uuid, definition, status, delivery }, liveBase, sameDefinition }) => ({
          uuid,
          definition: sameDefinition ? null : definition,
          status,
          delivery: delivery ?? null,
          live_base: liveBase,
        })),
      ),
    ],
  );
}
