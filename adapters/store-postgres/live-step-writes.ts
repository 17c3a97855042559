import type pg from 'pg';
import { advanceProgress, type LiveProgress, type LiveStep } from '../../core/hooks/live-progress.js';
import type { HookStatus, StoredHook } from '../../core/hooks/record.js';
import { arrayLiteral } from './array-literal.js';
import type { DefinitionCache } from './definition-cache.js';
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
  definitions: DefinitionCache,
): Promise<StoredHook[]> {
  // Locked first, so the hooks below are read as of the progress before this step.
  const { rows: progress } = await client.query<ProgressRow>(
    'SELECT evaluated, last_height, last_at FROM live_stream FOR UPDATE',
  );
  const before = progressOf(progress[0]);
  const after = advanceProgress(before, step);
  const written: StoredHook[] = [];
  if (uuids.length > 0) {
    const rows = await readLocked(client, uuids, definitions);
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
      }
    }
    await writeWhole(client, whole);
    if (narrow.length > 0) {
      await writeOccurrences(client, narrow, after !== before ? after : undefined);
      return written;
    }
  }
  if (after !== before) await writeProgress(client, after);
  return written;
}

/**
 * The named hooks, locked, in the listing order. The progress is known already, so the hooks are
 * read alone (and planned as the few rows they are); definitions are read only for rows written
 * since `definitions` took theirs, in a second statement on rows this transaction has locked.
 */
async function readLocked(
  client: pg.ClientBase,
  uuids: readonly string[],
  definitions: DefinitionCache,
): Promise<StoredRow[]> {
  const { rows } = await client.query<Omit<StoredRow, 'definition'> & { version: string }>(
    `SELECT ${HOOK_STATE_COLUMNS}, hooks.xmin || ':' || hooks.ctid AS version FROM ${HOOKS_WITH_OCCURRENCES}
     WHERE uuid = ANY ($1::text[]) ${LISTING_ORDER} ${LOCK_HOOKS}`,
    [arrayLiteral([...new Set(uuids)])],
  );
  const read = rows.map((row) => ({ ...row, definition: definitions.get(row.uuid, row.version)! }));
  const missing = read.filter((row) => row.definition === undefined);
  if (missing.length > 0) {
    const fetched = await client.query<Pick<StoredRow, 'uuid' | 'definition'>>(
      'SELECT uuid, definition FROM hooks WHERE uuid = ANY ($1::text[])',
      [arrayLiteral(missing.map((row) => row.uuid))],
    );
    const byUuid = new Map(fetched.rows.map((row) => [row.uuid, row.definition]));
    for (const row of missing) {
      row.definition = byUuid.get(row.uuid)!;
      definitions.set(row.uuid, row.version, row.definition);
    }
  }
  return read;
}

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
 * when given, in one statement: one round trip for what most steps write.
 */
async function writeOccurrences(
  client: pg.ClientBase,
  hooks: readonly Occurrences[],
  after: LiveProgress | undefined,
): Promise<void> {
  await client.query(
    `WITH counted AS (
       INSERT INTO hook_occurrences AS o (uuid, occurrence_count, last_occurrence_at, last_occurrence_block_height)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[])
       ON CONFLICT (uuid) DO UPDATE SET occurrence_count = excluded.occurrence_count,
         last_occurrence_at = excluded.last_occurrence_at,
         last_occurrence_block_height = excluded.last_occurrence_block_height)
     UPDATE live_stream SET evaluated = $6, last_height = $7, last_at = $8, last_event_id = $9 WHERE $5`,
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
}

async function writeProgress(client: pg.ClientBase, after: LiveProgress): Promise<void> {
  await client.query(
    'UPDATE live_stream SET evaluated = $1, last_height = $2, last_at = $3, last_event_id = $4',
    [after.evaluated, after.last_height, after.last_at, after.event_id ?? null],
  );
}
