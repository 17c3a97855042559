import type { ApiKeyRecord } from '../../core/accounts/api-key.js';
import { LIVE_STREAM_START, type LiveProgress } from '../../core/hooks/live-progress.js';
import type { StoredHook } from '../../core/hooks/record.js';
import { HookTable } from './hook-table.js';
import { KeyTable } from './key-table.js';
import { SecretTable } from './secret-table.js';

/**
 * The JSON file's shape; `version` lets a later release migrate an older file instead of misreading it.
 * The live stream fields came later and are optional: a file without them has evaluated nothing live
 * since, with every hook's counters exact as stored.
 */
export type StoreDocument = {
  version: 1;
  hooks: StoredHook[];
  /** The live stream's progress. */
  live_stream?: LiveProgress;
  /** The stream position each hook was stored at, where it is not 0. */
  live_bases?: { [uuid: string]: number };
  /** The number of the last live step this file holds (the side file may hold later ones). */
  live_seq?: number;
  /** The number of the last change this file holds (the change journal may hold later ones). */
  journal_seq?: number;
  keys: ApiKeyRecord[];
  consumer_secrets: { [owner: string]: string };
};

/** What the stores work on between writes: the document's contents, indexed. */
export type StoreState = {
  hooks: HookTable;
  liveStream: LiveProgress;
  keys: KeyTable;
  consumerSecrets: SecretTable;
};

/** The document of a store that has never been written. */
export function emptyDocument(): StoreDocument {
  return { version: 1, hooks: [], keys: [], consumer_secrets: {} };
}

/** The document as written: the stream positions as a Map, which the writer turns into an object. */
export type StoreSnapshot = Omit<StoreDocument, 'live_bases'> & { live_bases: ReadonlyMap<string, number> };

/**
 * The document to write for this state, which holds every live step up to `liveSeq` and every
 * change up to `journalSeq`. It shares the state's hook and key objects, which no change edits in
 * place (changes replace them), so it stays a picture of this moment while it is written in slices.
 */
export function toStoreSnapshot(state: StoreState, liveSeq: number, journalSeq: number): StoreSnapshot {
  return {
    version: 1,
    hooks: state.hooks.all(),
    live_stream: state.liveStream,
    live_bases: state.hooks.basesSnapshot(),
    live_seq: liveSeq,
    journal_seq: journalSeq,
    keys: [...state.keys.all()],
    consumer_secrets: Object.fromEntries(state.consumerSecrets),
  };
}

/**
 * Index a document read from `file`. A document of the wrong shape is refused with the reason, never
 * repaired: writing over it would destroy whatever the operator could still recover from it.
 */
export function toStoreState(document: unknown, file: string): StoreState {
  const refuse = (problem: string): Error =>
    new Error(`the store file ${file} is not a stackhooks store (${problem}); it was left untouched`);
  if (!isObject(document)) throw refuse('the top level is not an object');
  if (document.version !== 1) throw refuse(`unsupported version ${JSON.stringify(document.version)}`);
  const { hooks, keys, consumer_secrets: secrets, live_stream: stream, live_bases: bases = {} } = document;
  if (!Array.isArray(hooks)) throw refuse('"hooks" is not an array');
  if (!Array.isArray(keys)) throw refuse('"keys" is not an array');
  if (!isObject(secrets)) throw refuse('"consumer_secrets" is not an object');

  hooks.forEach((hook: unknown, index) => {
    const problem = hookShapeProblem(hook);
    if (problem) throw refuse(`hooks[${index}] ${problem}`);
  });
  for (const field of ['live_seq', 'journal_seq'] as const) {
    if (document[field] !== undefined && !Number.isSafeInteger(document[field])) {
      throw refuse(`"${field}" is not an integer`);
    }
  }
  if (stream !== undefined && !isLiveProgress(stream))
    throw refuse('"live_stream" is not a live stream progress');
  if (!isObject(bases) || Object.values(bases).some((base) => !Number.isSafeInteger(base))) {
    throw refuse('"live_bases" is not an object of integer positions');
  }
  keys.forEach((key: unknown, index) => {
    if (!isObject(key) || typeof key.id !== 'string' || typeof key.hash !== 'string') {
      throw refuse(`keys[${index}] has no string id and hash`);
    }
  });
  for (const [owner, secret] of Object.entries(secrets)) {
    if (typeof secret !== 'string') throw refuse(`consumer_secrets["${owner}"] is not a string`);
  }

  try {
    return {
      hooks: new HookTable(hooks as StoredHook[], bases as Record<string, number>),
      liveStream: (stream as LiveProgress | undefined) ?? LIVE_STREAM_START,
      keys: new KeyTable(keys as ApiKeyRecord[]),
      consumerSecrets: new SecretTable(Object.entries(secrets as Record<string, string>)),
    };
  } catch (err) {
    throw refuse((err as Error).message);
  }
}

/** What makes a value read from a file no stored hook, or undefined when it has a hook's shape. */
export function hookShapeProblem(hook: unknown): string | undefined {
  if (!isObject(hook) || typeof hook.uuid !== 'string' || typeof hook.owner !== 'string') {
    return 'has no string uuid and owner';
  }
  if (typeof hook.created_at_ms !== 'number' || !isObject(hook.definition) || !isObject(hook.status)) {
    return `(${hook.uuid}) lacks created_at_ms, definition or status`;
  }
  return undefined;
}

/** Whether a value read from a file is a live stream progress. */
export function isLiveProgress(value: unknown): value is LiveProgress {
  if (!isObject(value) || !Number.isSafeInteger(value.evaluated)) return false;
  const nullOrInteger = (field: unknown) => field === null || Number.isSafeInteger(field);
  const eventId = value.event_id === undefined || Number.isSafeInteger(value.event_id);
  return nullOrInteger(value.last_height) && nullOrInteger(value.last_at) && eventId;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
