import type { LiveProgress, LiveStep } from '../hooks/live-progress.js';
import type { HookListFilter } from '../hooks/list-filter.js';
import type { HookStatusValue, StoredHook } from '../hooks/record.js';

/** Which of an owner's hooks a bulk change touches; the given fields combine with AND. */
export type HookSelection = {
  owner: string;
  uuids?: string[];
  webhook_url?: string;
  statuses?: HookStatusValue[];
};

/** One page of an owner's hooks, oldest first, with how many the listing holds in all. */
export type HookPage = { total: number; results: StoredHook[] };

/**
 * Where hooks live. Every change is a read-modify-write that the store runs atomically against the
 * latest version, so concurrent requests never lose an update; a change function may throw to abort.
 *
 * The store also keeps the live stream's progress. A live hook's evaluation counters are not written
 * per block: the store keeps the stream position each hook was last written at, and every hook it
 * hands out (reads and change arguments alike) shows its counters as of the progress now
 * (`withLiveProgress`); whatever is written back is exact as of that progress and rebased on it.
 */
export interface HookRepository {
  /**
   * Store a new hook unless its owner already has `maxPerOwner` hooks: the hook as stored, whose
   * definition may be the store's own, never to be edited (the matcher keeps it for as long as the
   * hook lives); undefined when at the limit.
   */
  insert(hook: StoredHook, maxPerOwner: number): Promise<StoredHook | undefined>;
  /** One owner's hook, or undefined (another owner's hook is undefined too). */
  get(owner: string, uuid: string): Promise<StoredHook | undefined>;
  /** A hook whoever owns it, for processes told by uuid that it changed; undefined when gone. */
  getByUuid(uuid: string): Promise<StoredHook | undefined>;
  /** The hooks with these uuids that exist, whoever owns them, in no set order: one read for a batch of deliveries. */
  getByUuids(uuids: readonly string[]): Promise<StoredHook[]>;
  /** A page of one owner's hooks that pass `filter` (all by default), oldest first, with their total. */
  list(owner: string, offset: number, limit: number, filter?: HookListFilter): Promise<HookPage>;
  /** Replace one hook by `change(latest)`; undefined when the owner has no such hook. */
  update(
    owner: string,
    uuid: string,
    change: (hook: StoredHook) => StoredHook,
  ): Promise<StoredHook | undefined>;
  /** Apply `change` to every selected hook in one atomic step; `change` returns undefined to skip one. Returns the changed hooks. */
  updateMany(
    selection: HookSelection,
    change: (hook: StoredHook) => StoredHook | undefined,
  ): Promise<StoredHook[]>;
  /** How far the live stream has come. */
  liveProgress(): Promise<LiveProgress>;
  /**
   * One live step in one atomic step: the progress moves by `step`, and `change` gets each hook with
   * these uuids that exists, whoever owns it, as of the progress before the step, and returns it as it
   * stands after the step's blocks (or undefined to leave it). Returns the hooks written. Only the
   * hooks that change state are named (payloads, limits), so a block costs what its matches cost.
   * A step changes status and delivery state only: the definitions `change` gets and the returned
   * hooks hold may be the store's own, never to be edited in place. Given `after` (the step's
   * payloads being queued), the step is stored only once it resolves, and not at all if it rejects
   * (the call then rejects with its reason); the store may read and prepare the step meanwhile.
   */
  recordLiveStep(
    step: LiveStep,
    uuids: readonly string[],
    change: (hook: StoredHook) => StoredHook | undefined,
    after?: Promise<unknown>,
  ): Promise<StoredHook[]>;
  /** Remove one hook; false when the owner has no such hook. */
  delete(owner: string, uuid: string): Promise<boolean>;
  /** Every hook of every owner, for building the matcher's index; definitions may be the store's own, never to be edited. */
  listAll(): Promise<StoredHook[]>;
  /** How many hooks there are of each status, enabled or not, as each is shown (for metrics; no hook is read whole). */
  statusCounts(): Promise<HookStatusCount[]>;
}

/** The number of hooks with one status and one `enabled` value; combinations with none are left out. */
export type HookStatusCount = { status: HookStatusValue; enabled: boolean; count: number };

export const HOOK_REPOSITORY = Symbol.for('stackhooks.HookRepository');
