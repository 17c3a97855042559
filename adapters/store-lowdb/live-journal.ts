import type { LiveProgress } from '../../core/hooks/live-progress.js';
import type { StoredHook } from '../../core/hooks/record.js';
import { snapshotLine } from './live-log-line.js';
import { hookShapeProblem, isLiveProgress, type StoreState } from './store-document.js';

/**
 * The side file's name inside the data folder, beside the main file: where versions before the
 * live log (`LIVE_LOG_FILE_NAME`) wrote live steps, read at open and then removed.
 */
export const LIVE_JOURNAL_FILE_NAME = 'stackhooks-live.json';

/** One hook a live step changed, whole, with its stream position and the number of that step. */
type JournalEntry = { seq: number; base: number; hook: StoredHook };

/** The side file's shape. */
export type LiveJournalDocument = {
  version: 1;
  /** The number of the last live step it holds. */
  seq: number;
  live_stream: LiveProgress;
  hooks: JournalEntry[];
};

/**
 * What the live steps changed since the main file last took them in: the number of the last step,
 * and the hooks they wrote (payloads, expiries), each with the step that wrote it last. A block
 * appends to the live log instead of writing the main file with every hook; a main-file write takes
 * everything in and records the last step number it holds, so at open only the log's later steps
 * are replayed over it.
 */
export class LiveJournal {
  #seq: number;
  /** Each hook changed by a live step the main file may not hold yet, with that step's number. */
  readonly #changed: Map<string, number>;

  constructor(seq: number, changed: Map<string, number> = new Map()) {
    this.#seq = seq;
    this.#changed = changed;
  }

  /** The number of the last live step. */
  get seq(): number {
    return this.#seq;
  }

  /** How many hooks the main file may not hold yet. */
  get size(): number {
    return this.#changed.size;
  }

  /** Note one live step, which moved the progress and wrote these hooks. */
  record(uuids: Iterable<string>): void {
    this.#seq++;
    for (const uuid of uuids) this.#changed.set(uuid, this.#seq);
  }

  /** Forget the hooks a finished main-file write holds: it took in every step up to `seq`. */
  settle(seq: number): void {
    for (const [uuid, step] of this.#changed) if (step <= seq) this.#changed.delete(uuid);
  }

  /** Take in the steps a replayed live log holds: their last number, and the hooks they wrote. */
  replayed(seq: number, changed: ReadonlyMap<string, number>): void {
    this.#seq = Math.max(this.#seq, seq);
    for (const [uuid, step] of changed) this.#changed.set(uuid, step);
  }

  /** The live log line that stands for every step so far: hooks deleted since are left out. */
  snapshot(state: StoreState): string {
    return snapshotLine(state, this.#seq, this.#changed);
  }
}

/**
 * Replay a side file (of a version before the live log) read at open over the state of a main file that holds every live step up to
 * `mainSeq`, and return the journal to go on with. A side file of the wrong shape is refused, never
 * repaired, like the main file; entries for hooks the state does not hold are skipped (their insert
 * was never acknowledged, or a later change removed them), and so are entries for hooks a change
 * wrote after their step: `writtenAfter` gives, per hook, the last live step before that change.
 */
export function replayJournal(
  state: StoreState,
  mainSeq: number,
  document: unknown,
  file: string,
  writtenAfter: ReadonlyMap<string, number> = new Map(),
): LiveJournal {
  if (document === null || document === undefined) return new LiveJournal(mainSeq);
  const refuse = (problem: string): Error =>
    new Error(`the live stream file ${file} is not a stackhooks journal (${problem}); it was left untouched`);
  const journal = document as LiveJournalDocument;
  if (journal.version !== 1) throw refuse(`unsupported version ${JSON.stringify(journal.version)}`);
  if (!Number.isSafeInteger(journal.seq)) throw refuse('"seq" is not an integer');
  if (!Array.isArray(journal.hooks)) throw refuse('"hooks" is not an array');
  if (!isLiveProgress(journal.live_stream)) throw refuse('"live_stream" is not a live stream progress');
  if (journal.seq <= mainSeq) return new LiveJournal(mainSeq);
  const changed = new Map<string, number>();
  journal.hooks.forEach((entry, index) => {
    if (!Number.isSafeInteger(entry?.seq) || !Number.isSafeInteger(entry.base)) {
      throw refuse(`hooks[${index}] lacks seq or base`);
    }
    const problem = hookShapeProblem(entry.hook);
    if (problem) throw refuse(`hooks[${index}].hook ${problem}`);
    const stored = state.hooks.get(entry.hook.uuid);
    if (entry.seq <= mainSeq || !stored || (writtenAfter.get(stored.uuid) ?? -1) >= entry.seq) return;
    if (stored.owner !== entry.hook.owner || stored.created_at_ms !== entry.hook.created_at_ms) {
      throw refuse(`hooks[${index}] (${entry.hook.uuid}) has another owner or creation time than the store`);
    }
    state.hooks.replace(entry.hook, entry.base);
    changed.set(entry.hook.uuid, entry.seq);
  });
  state.liveStream = journal.live_stream;
  return new LiveJournal(journal.seq, changed);
}
