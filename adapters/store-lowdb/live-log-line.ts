import type { HookDefinition } from '../../core/hooks/definition.js';
import type { LiveProgress } from '../../core/hooks/live-progress.js';
import type { HookDeliveryState, HookStatus, StoredHook } from '../../core/hooks/record.js';
import { hookShapeProblem, isLiveProgress, type StoreState } from './store-document.js';

/**
 * What a live step wrote of one hook: its status and delivery state, which is all a step changes;
 * its definition only when the step changed that too (a snapshot line carries it always). `seq`
 * (the step's number) and `base` (its stream position) are the line's unless given.
 */
type LiveHookEntry = {
  uuid: string;
  status: HookStatus;
  delivery?: HookDeliveryState;
  definition?: HookDefinition;
  seq?: number;
  base?: number;
};

/** A status's fields in the order hooks are created with, which is the order of a status row. */
const STATUS_FIELDS = [
  'status',
  'enabled',
  'created_at',
  'last_evaluated_at',
  'last_evaluated_block_height',
  'last_occurrence_at',
  'last_occurrence_block_height',
  'evaluated_block_count',
  'occurrence_count',
] as const satisfies readonly (keyof HookStatus)[];

/**
 * What a step wrote of a hook without a delivery state whose definition it left alone: the uuid,
 * then the status's values in `STATUS_FIELDS` order. The field names are most of a status's JSON,
 * and a block's step writes a thousand statuses.
 */
type StatusRow = [uuid: string, ...values: HookStatus[keyof HookStatus][]];

/**
 * One line of the live log: a step (the progress after it and the hooks it wrote, as entries and as
 * status rows), or a snapshot of every hook the main file may not hold yet, each with the number of
 * the step that last wrote it.
 */
export type LiveLine = {
  seq: number;
  live_stream: LiveProgress;
  hooks: LiveHookEntry[];
  statuses?: StatusRow[];
};

/**
 * The line of step `seq`, which wrote `written` (the hooks as the state holds them now) and the
 * definitions of the uuids in `definitions`.
 */
export function stepLine(
  state: StoreState,
  seq: number,
  written: readonly StoredHook[],
  definitions: ReadonlySet<string>,
): string {
  const hooks: LiveHookEntry[] = [];
  const statuses: StatusRow[] = [];
  for (const hook of written) {
    const changedDefinition = definitions.has(hook.uuid);
    const row = hook.delivery || changedDefinition ? undefined : statusRow(hook.uuid, hook.status);
    if (row) statuses.push(row);
    else hooks.push(entryOf(hook, changedDefinition));
  }
  const line: LiveLine = { seq, live_stream: state.liveStream, hooks };
  if (statuses.length > 0) line.statuses = statuses;
  return JSON.stringify(line);
}

/** A line that stands for every step up to `seq`: the progress, and each hook in `changed` whole. */
export function snapshotLine(state: StoreState, seq: number, changed: ReadonlyMap<string, number>): string {
  const hooks: LiveHookEntry[] = [];
  for (const [uuid, step] of changed) {
    const hook = state.hooks.get(uuid);
    if (hook) hooks.push({ ...entryOf(hook, true), seq: step, base: state.hooks.baseOf(uuid) });
  }
  return JSON.stringify({ seq, live_stream: state.liveStream, hooks } satisfies LiveLine);
}

/** A line read back, or undefined when it is not one (a torn tail). */
export function parseLiveLine(line: Buffer): LiveLine | undefined {
  try {
    const parsed = JSON.parse(line.toString('utf8')) as LiveLine;
    const rows = parsed?.statuses === undefined || Array.isArray(parsed.statuses);
    return Number.isSafeInteger(parsed?.seq) && Array.isArray(parsed.hooks) && rows ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Replay the live log's lines over the state of a main file that holds every live step up to
 * `mainSeq` (and the change journal's changes). Entries for hooks the state does not hold are
 * skipped, and so are those of a step before a change wrote the hook (`writtenAfter`: per hook,
 * the last live step before that change). Returns, per hook written, the step that wrote it last.
 * A line that cannot have been written by this store is refused, naming `file`.
 */
export function replayLiveLines(
  state: StoreState,
  mainSeq: number,
  lines: readonly LiveLine[],
  file: string,
  writtenAfter: ReadonlyMap<string, number>,
): Map<string, number> {
  const changed = new Map<string, number>();
  lines.forEach((line, n) => {
    if (line.seq <= mainSeq) return;
    const refuse = (problem: string): Error =>
      new Error(
        `the live stream log ${file} is not a stackhooks log (line ${n + 1}: ${problem}); it was left untouched`,
      );
    if (!isLiveProgress(line.live_stream)) throw refuse('"live_stream" is not a live stream progress');
    line.hooks.forEach((entry, i) => {
      const seq = entry?.seq ?? line.seq;
      const base = entry?.base ?? line.live_stream.evaluated;
      if (!Number.isSafeInteger(seq) || !Number.isSafeInteger(base))
        throw refuse(`hooks[${i}] lacks seq or base`);
      const stored = typeof entry.uuid === 'string' ? state.hooks.get(entry.uuid) : undefined;
      if (seq <= mainSeq || !stored || (writtenAfter.get(stored.uuid) ?? -1) >= seq) return;
      const hook = withEntry(stored, entry);
      const problem = hookShapeProblem(hook);
      if (problem) throw refuse(`hooks[${i}] ${problem}`);
      state.hooks.replace(hook, base);
      changed.set(hook.uuid, seq);
    });
    line.statuses?.forEach((row, i) => {
      if (!Array.isArray(row) || row.length !== STATUS_FIELDS.length + 1 || typeof row[0] !== 'string')
        throw refuse(`statuses[${i}] is not a status row`);
      const stored = state.hooks.get(row[0]);
      if (!stored || (writtenAfter.get(stored.uuid) ?? -1) >= line.seq) return;
      state.hooks.replace(
        withEntry(stored, { uuid: row[0], status: statusOf(row) }),
        line.live_stream.evaluated,
      );
      changed.set(stored.uuid, line.seq);
    });
    state.liveStream = line.live_stream;
  });
  return changed;
}

/** The status as a row, or undefined when it has other fields or another order than `STATUS_FIELDS`. */
function statusRow(uuid: string, status: HookStatus): StatusRow | undefined {
  const row: StatusRow = [uuid];
  let i = 0;
  for (const field in status) {
    const value = status[field as keyof HookStatus];
    // An undefined value would come back as null; an entry leaves it out, as the status does.
    if (field !== STATUS_FIELDS[i] || value === undefined) return undefined;
    row.push(value);
    i++;
  }
  return i === STATUS_FIELDS.length ? row : undefined;
}

/** The status a row holds, its fields in `STATUS_FIELDS` order. */
function statusOf(row: readonly unknown[]): HookStatus {
  const status: Record<string, unknown> = {};
  STATUS_FIELDS.forEach((field, i) => (status[field] = row[i + 1]));
  return status as HookStatus;
}

function entryOf(hook: StoredHook, withDefinition: boolean): LiveHookEntry {
  return {
    uuid: hook.uuid,
    status: hook.status,
    ...(hook.delivery && { delivery: hook.delivery }),
    ...(withDefinition && { definition: hook.definition }),
  };
}

/** The stored hook as the entry leaves it: the entry's status and delivery state (none if absent). */
function withEntry(stored: StoredHook, entry: LiveHookEntry): StoredHook {
  const { delivery: _replaced, ...rest } = stored;
  return {
    ...rest,
    definition: entry.definition ?? stored.definition,
    status: entry.status,
    ...(entry.delivery && { delivery: entry.delivery }),
  };
}
