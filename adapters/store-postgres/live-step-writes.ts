import type pg from 'pg';
import { advanceProgress, type LiveProgress, type LiveStep } from '../../core/hooks/live-progress.js';
import type { HookStatus, StoredHook } from '../../core/hooks/record.js';
import { arrayLiteral } from './array-literal.js';
import type { DefinitionCache } from './definition-cache.js';
import type { StepRowCache, StepRowState } from './step-row-cache.js';
import {
  HOOK_STATE_COLUMNS,
  HOOKS_WITH_OCCURRENCES,
  LISTING_ORDER,
  LOCK_HOOKS,
  assertSameIdentity,
  asStored,
  hookOfRow,
  progressOf,
  writeWhole,
  type ProgressRow,
  type StoredRow,
  type WholeWrite,
} from './hook-rows.js';

/** The status fields a live step may write beside a hook's row instead of into it (migration 016). */
const OCCURRENCE_FIELDS: ReadonlySet<string> = new Set([
  'occurrence_count',
  'last_occurrence_at',
  'last_occurrence_block_height',
]);

/** What a live step keeps of the rows it read and wrote, for the next step. */
export type StepReads = { definitions: DefinitionCache; rows: StepRowCache };

/** A hook whose only change is its occurrences, written beside its row. */
type Occurrences = { uuid: string; count: number; at: number | null; height: number | null };

/**
 * One live step in the caller's transaction: the progress row is locked and moved by `step`, and
 * `change` runs on each named hook (locked, as of the progress before the step). Most hooks a step
 * reaches only gain an occurrence (their evaluations follow the progress): those are written as
 * one narrow row each, in one statement, and their hook rows stay as they are. A hook whose change
 * goes further (a limit that expires it, a resume rewound) is written whole. Definitions come from
 * `definitions` when the hook's row has not been written since they were read. Returns the hooks written.
 */
export async function writeLiveStep(
  client: pg.ClientBase,
  step: LiveStep,
  uuids: readonly string[],
  change: (hook: StoredHook) => StoredHook | undefined,
  reads: StepReads,
): Promise<StoredHook[]> {
  // Locked first, so the hooks below are read as of the progress before this step.
  const { rows: progress } = await client.query<ProgressRow>(
    'SELECT evaluated, last_height, last_at FROM live_stream FOR UPDATE',
  );
  const before = progressOf(progress[0]);
  const after = advanceProgress(before, step);
  const written: StoredHook[] = [];
  if (uuids.length > 0) {
    const rows = await readLocked(client, uuids, reads);
    const narrow: Occurrences[] = [];
    const whole: WholeWrite[] = [];
    for (const row of rows) {
      const given = hookOfRow(row, before);
      const next = change(given);
      if (next === undefined) continue;
      assertSameIdentity(row, next);
      const occurrences = onlyOccurrences(next, hookOfRow(row, after));
      if (occurrences) {
        narrow.push(occurrences);
        written.push(next);
      } else {
        const sameDefinition = next.definition === given.definition;
        const hook = asStored(row, next);
        whole.push({ hook, liveBase: after.evaluated, sameDefinition });
        written.push(hook);
        reads.rows.forget(hook.uuid);
      }
    }
    await writeWhole(client, whole);
    if (narrow.length > 0) {
      await writeOccurrences(client, narrow, after !== before ? after : undefined, reads.rows);
      return written;
    }
  }
  if (after !== before) await writeProgress(client, after);
  return written;
}

/**
 * The named hooks, locked, in the listing order. The progress is known already, so the hooks are
 * read alone (and planned as the few rows they are). The locking read returns only each hook's row
 * versions: a hook's state is read (in a second statement, on rows this transaction has locked)
 * only when `reads` does not hold it at those versions, and its definition only when `reads` does
 * not hold the one of its row's version.
 */
async function readLocked(
  client: pg.ClientBase,
  uuids: readonly string[],
  reads: StepReads,
): Promise<StoredRow[]> {
  const { rows: versions } = await client.query<{ uuid: string } & RowVersions>(
    `SELECT uuid, ${VERSION_COLUMNS} FROM ${HOOKS_WITH_OCCURRENCES}
     WHERE uuid = ANY ($1::text[]) ${LISTING_ORDER} ${LOCK_HOOKS}`,
    [arrayLiteral([...new Set(uuids)])],
  );
  const states = versions.map(({ uuid, version, o_version }) => reads.rows.get(uuid, version, o_version));
  const unknown = versions.filter((_, i) => states[i] === undefined);
  if (unknown.length > 0) {
    const { rows } = await client.query<StepRowState & RowVersions>(
      `SELECT ${HOOK_STATE_COLUMNS}, ${VERSION_COLUMNS} FROM ${HOOKS_WITH_OCCURRENCES}
       WHERE uuid = ANY ($1::text[])`,
      [arrayLiteral(unknown.map((row) => row.uuid))],
    );
    const byUuid = new Map(rows.map((row) => [row.uuid, row]));
    versions.forEach((row, i) => {
      if (states[i] !== undefined) return;
      const { version, o_version, ...state } = byUuid.get(row.uuid)!;
      // The versions this read saw; the locks keep them from moving since the first read.
      reads.rows.set(row.uuid, version, o_version, state);
      states[i] = state;
    });
  }
  const read = versions.map(({ uuid, version }, i) =>
    Object.assign(states[i]!, { definition: reads.definitions.get(uuid, version)!, version }),
  );
  const missing = read.filter((row) => row.definition === undefined);
  if (missing.length > 0) {
    const fetched = await client.query<Pick<StoredRow, 'uuid' | 'definition'>>(
      'SELECT uuid, definition FROM hooks WHERE uuid = ANY ($1::text[])',
      [arrayLiteral(missing.map((row) => row.uuid))],
    );
    const byUuid = new Map(fetched.rows.map((row) => [row.uuid, row.definition]));
    for (const row of missing) {
      row.definition = byUuid.get(row.uuid)!;
      reads.definitions.set(row.uuid, row.version, row.definition);
    }
  }
  return read;
}

/** A hook row's version and its occurrences row's (null when it has none). */
type RowVersions = { version: string; o_version: string | null };
const VERSION_COLUMNS = `hooks.xmin || ':' || hooks.ctid AS version, o.xmin || ':' || o.ctid AS o_version`;

/**
 * The occurrences of `next` when they are all it changes from `unwritten` (the hook as a read after
 * the step would show it with its row left alone); undefined when it changes anything else.
 */
function onlyOccurrences(next: StoredHook, unwritten: StoredHook): Occurrences | undefined {
  // The port's promise: a step leaves definitions as they are, and hands back the one it was given.
  if (next.definition !== unwritten.definition) return undefined;
  if (JSON.stringify(next.delivery ?? null) !== JSON.stringify(unwritten.delivery ?? null)) return undefined;
  const status = next.status as Record<string, unknown>;
  const shown = unwritten.status as Record<string, unknown>;
  const keys = Object.keys(status);
  if (keys.length !== Object.keys(shown).length) return undefined;
  for (const key of keys) {
    if (!(key in shown)) return undefined;
    if (!OCCURRENCE_FIELDS.has(key) && status[key] !== shown[key]) return undefined;
  }
  const { occurrence_count, last_occurrence_at, last_occurrence_block_height } = next.status as HookStatus;
  if (
    !isCount(occurrence_count) ||
    !isCountOrNull(last_occurrence_at) ||
    !isCountOrNull(last_occurrence_block_height)
  )
    return undefined;
  return {
    uuid: next.uuid,
    count: occurrence_count,
    at: last_occurrence_at,
    height: last_occurrence_block_height,
  };
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

function isCountOrNull(value: unknown): value is number | null {
  return value === null || isCount(value);
}

/**
 * Store the occurrences beside their hooks' rows (locked by the caller), and the progress `after`
 * when given, in one statement: one round trip for what most steps write. The new occurrence rows'
 * versions are noted in `rows`, so the next step need not read back what this one wrote.
 */
async function writeOccurrences(
  client: pg.ClientBase,
  hooks: readonly Occurrences[],
  after: LiveProgress | undefined,
  rows: StepRowCache,
): Promise<void> {
  const { rows: counted } = await client.query<{ uuid: string; o_version: string }>(
    `WITH counted AS (
       INSERT INTO hook_occurrences AS o (uuid, occurrence_count, last_occurrence_at, last_occurrence_block_height)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[])
       ON CONFLICT (uuid) DO UPDATE SET occurrence_count = excluded.occurrence_count,
         last_occurrence_at = excluded.last_occurrence_at,
         last_occurrence_block_height = excluded.last_occurrence_block_height
       RETURNING o.uuid, o.xmin || ':' || o.ctid AS o_version),
     moved AS (
       UPDATE live_stream SET evaluated = $6, last_height = $7, last_at = $8, last_event_id = $9 WHERE $5)
     SELECT uuid, o_version FROM counted`,
    [
      arrayLiteral(hooks.map((h) => h.uuid)),
      arrayLiteral(hooks.map((h) => h.count)),
      arrayLiteral(hooks.map((h) => h.at)),
      arrayLiteral(hooks.map((h) => h.height)),
      after !== undefined,
      after?.evaluated ?? null,
      after?.last_height ?? null,
      after?.last_at ?? null,
      after?.event_id ?? null,
    ],
  );
  const byUuid = new Map(hooks.map((h) => [h.uuid, h]));
  for (const { uuid, o_version } of counted) {
    const { count, at, height } = byUuid.get(uuid)!;
    rows.counted(uuid, o_version, count, at, height);
  }
}

async function writeProgress(client: pg.ClientBase, after: LiveProgress): Promise<void> {
  await client.query(
    'UPDATE live_stream SET evaluated = $1, last_height = $2, last_at = $3, last_event_id = $4',
    [after.evaluated, after.last_height, after.last_at, after.event_id ?? null],
  );
}
