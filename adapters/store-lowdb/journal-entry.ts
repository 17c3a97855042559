import type { ApiKeyRecord } from '../../core/accounts/api-key.js';
import type { StoredHook } from '../../core/hooks/record.js';
import { hookShapeProblem, type StoreState } from './store-document.js';

/**
 * One change as the change journal holds it: its number, the number of the last live step before it
 * (so replay can order it against the live stream's side file), and what it left in the state: each
 * hook it wrote whole with its stream position, each hook it removed, each key record it wrote and
 * each consumer secret it set (or removed, as null).
 */
export type JournalEntry = {
  seq: number;
  live: number;
  hooks?: { hook: StoredHook; base: number }[];
  removed?: string[];
  keys?: ApiKeyRecord[];
  secrets?: [owner: string, secret: string | null][];
};

/**
 * The entry for what a change just did to `state`, taken from the tables' notes of what they
 * touched; undefined when it touched nothing. The objects are the state's own, which no change
 * edits in place, and the caller serializes them at once.
 */
export function entryOf(state: StoreState, seq: number, live: number): JournalEntry | undefined {
  const entry: JournalEntry = { seq, live };
  for (const uuid of state.hooks.takeTouched()) {
    const hook = state.hooks.get(uuid);
    if (hook) (entry.hooks ??= []).push({ hook, base: state.hooks.baseOf(uuid) });
    else (entry.removed ??= []).push(uuid);
  }
  for (const id of state.keys.takeTouched()) (entry.keys ??= []).push(state.keys.byId(id)!);
  for (const owner of state.consumerSecrets.takeTouched()) {
    (entry.secrets ??= []).push([owner, state.consumerSecrets.get(owner) ?? null]);
  }
  return entry.hooks || entry.removed || entry.keys || entry.secrets ? entry : undefined;
}

/** Forget what the tables noted, for changes the journal does not carry (replay, live steps). */
export function forgetTouched(state: StoreState): void {
  state.hooks.takeTouched();
  state.keys.takeTouched();
  state.consumerSecrets.takeTouched();
}

/**
 * Replay one entry read back from the journal over `state`. Throws (naming the problem) when the
 * entry cannot have been written by this store: a hook of the wrong shape, or one that moved owner.
 */
export function applyEntry(state: StoreState, entry: JournalEntry): void {
  for (const [index, { hook, base }] of (entry.hooks ?? []).entries()) {
    const problem = hookShapeProblem(hook) ?? (Number.isSafeInteger(base) ? undefined : 'has no base');
    if (problem) throw new Error(`hooks[${index}] ${problem}`);
    const stored = state.hooks.get(hook.uuid);
    if (!stored) state.hooks.add(hook, base);
    else if (stored.owner !== hook.owner || stored.created_at_ms !== hook.created_at_ms) {
      throw new Error(`hooks[${index}] (${hook.uuid}) has another owner or creation time than the store`);
    } else state.hooks.replace(hook, base);
  }
  for (const uuid of entry.removed ?? []) state.hooks.remove(uuid);
  for (const key of entry.keys ?? []) {
    if (typeof key?.id !== 'string' || typeof key.hash !== 'string')
      throw new Error('a key has no id and hash');
    if (state.keys.byId(key.id)) state.keys.replace(key);
    else state.keys.add(key);
  }
  for (const [owner, secret] of entry.secrets ?? []) {
    if (secret === null) state.consumerSecrets.delete(owner);
    else state.consumerSecrets.set(owner, secret);
  }
}

/** A journal's text split into the entries it holds, and how much of it is whole. */
export type ReadJournal<E = JournalEntry> = {
  entries: E[];
  /** Bytes of whole entries from the start; anything after is a torn tail. */
  wholeBytes: number;
};

/**
 * Split a journal into its entries. Entries are appended and fsynced one batch at a time, so only
 * the tail can be torn by a crash: a last line without its newline, or lines that do not parse
 * (a file system may show zeros where an append had not reached the disk). Those are left out.
 * A line that does not parse followed by one that does cannot come from a crash; that is refused.
 */
export function readJournal<E = JournalEntry>(
  bytes: Buffer,
  parse: (line: Buffer) => E | undefined = parseEntry as (line: Buffer) => E | undefined,
): ReadJournal<E> {
  const entries: E[] = [];
  let start = 0;
  let tornAt: number | undefined;
  while (start < bytes.length) {
    const end = bytes.indexOf(0x0a, start);
    const line = bytes.subarray(start, end === -1 ? bytes.length : end);
    const entry = end === -1 ? undefined : parse(line);
    if (entry === undefined) tornAt ??= start;
    else if (tornAt !== undefined) {
      throw new Error(`an unreadable entry at byte ${tornAt} is followed by readable ones`);
    } else entries.push(entry);
    if (end === -1) break;
    start = end + 1;
  }
  return { entries, wholeBytes: tornAt ?? bytes.length };
}

/** A change journal line read back, or undefined when it is not one (a torn tail). */
export function parseEntry(line: Buffer): JournalEntry | undefined {
  try {
    const entry = JSON.parse(line.toString('utf8')) as JournalEntry;
    return Number.isSafeInteger(entry?.seq) && Number.isSafeInteger(entry.live) ? entry : undefined;
  } catch {
    return undefined;
  }
}
