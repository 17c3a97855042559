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

/**
 * One line of the live log: a step (the progress after it and the hooks it wrote), or a snapshot of
 * every hook the main file may not hold yet, each with the number of the step that last wrote it.
 */
export type LiveLine = { seq: number; live_stream: LiveProgress; hooks: LiveHookEntry[] };

/** The line of step `seq`, which wrote the hooks `uuids` (and the definitions of `definitions`). */
export function stepLine(
  state: StoreState,
  seq: number,
  uuids: readonly string[],
  definitions: ReadonlySet<string>,
): string {
  const hooks: LiveHookEntry[] = [];
  for (const uuid of uuids) {
    const hook = state.hooks.get(uuid);
    if (hook) hooks.push(entryOf(hook, definitions.has(uuid)));
  }
  return JSON.stringify({ seq, live_stream: state.liveStream, hooks } satisfies LiveLine);
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
    return Number.isSafeInteger(parsed?.seq) && Array.isArray(parsed.hooks) ? parsed : undefined;
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
    state.liveStream = line.live_stream;
  });
  return changed;
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
