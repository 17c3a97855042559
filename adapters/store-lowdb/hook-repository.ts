import { inject, injectable } from 'inversify';
import type { LiveProgress, LiveStep } from '../../core/hooks/live-progress.js';
import { advanceProgress, rebase, shownStatus, withLiveProgress } from '../../core/hooks/live-progress.js';
import type { HookDefinition } from '../../core/hooks/definition.js';
import { isListFiltered, matchesListFilter, type HookListFilter } from '../../core/hooks/list-filter.js';
import type { StoredHook } from '../../core/hooks/record.js';
import type {
  HookPage,
  HookRepository,
  HookSelection,
  HookStatusCount,
} from '../../core/ports/hook-repository.js';
import { compareHooks, type HookEntry } from './hook-table.js';
import { STORE_FILE } from './store-file.js';
import type { StoreFile } from './store-file.js';
import type { StoreState } from './store-document.js';

/**
 * Hooks in the embedded JSON file. Every result is a copy and every stored hook is a copy of what the
 * caller gave, so no caller can reach into the store's state; change functions get a copy too, so one
 * that edits its argument and then throws leaves the stored hook as it was. Every hook handed out
 * shows its evaluation counters as of the live stream's progress (`withLiveProgress`).
 */
@injectable()
export class LowdbHookRepository implements HookRepository {
  constructor(@inject(STORE_FILE) private readonly file: StoreFile) {}

  /**
   * Store a new hook unless its owner already has `maxPerOwner`; a repeated uuid is refused with an
   * error. The hook returned shares the stored definition: the caller's listeners keep it, and a
   * copy of their own would hold every definition twice (at 100,000 hooks, tens of MiB).
   */
  async insert(hook: StoredHook, maxPerOwner: number): Promise<StoredHook | undefined> {
    const copy = structuredClone(hook);
    return this.file.change(({ hooks }) => {
      if (hooks.get(copy.uuid)) throw new Error(`hook ${copy.uuid} is already stored`);
      if (hooks.countOf(copy.owner) >= maxPerOwner) return { result: undefined, changed: false };
      hooks.add(copy, this.file.state.liveStream.evaluated);
      // Stored at the stream's position now, so its counters are exact as they are.
      return { result: liveStepCopy(copy), changed: true };
    });
  }

  /** One owner's hook, or undefined. */
  async get(owner: string, uuid: string): Promise<StoredHook | undefined> {
    const hook = this.#owned(owner, uuid);
    return hook && this.#view(hook);
  }

  /** A hook whoever owns it, or undefined. */
  async getByUuid(uuid: string): Promise<StoredHook | undefined> {
    const hook = this.file.state.hooks.get(uuid);
    return hook && this.#view(hook);
  }

  /** The hooks with these uuids that exist, whoever owns them. */
  async getByUuids(uuids: readonly string[]): Promise<StoredHook[]> {
    const found = [...new Set(uuids)].map((uuid) => this.file.state.hooks.get(uuid));
    return found.filter((hook) => hook !== undefined).map((hook) => this.#view(hook));
  }

  /** A page of one owner's hooks that pass the filter, oldest first. */
  async list(owner: string, offset: number, limit: number, filter: HookListFilter = {}): Promise<HookPage> {
    const owned = this.file.state.hooks.ownedBy(owner);
    const start = Math.max(0, offset);
    if (!isListFiltered(filter)) {
      const page = owned.slice(start, start + Math.max(0, limit));
      return { total: owned.length, results: page.map(({ hook }) => this.#view(hook)) };
    }
    // Matched as shown, without a copy of every hook: only the page is copied.
    const { liveStream } = this.file.state;
    const passing = owned.filter(({ hook, base }) =>
      matchesListFilter(withLiveProgress(hook, base, liveStream), filter),
    );
    const page = passing.slice(start, start + Math.max(0, limit));
    return { total: passing.length, results: page.map(({ hook }) => this.#view(hook)) };
  }

  /** Replace one hook by `change(latest)`; the change may not alter its uuid, owner or creation time. */
  async update(
    owner: string,
    uuid: string,
    change: (hook: StoredHook) => StoredHook,
  ): Promise<StoredHook | undefined> {
    return this.file.change(({ hooks }) => {
      const current = this.#owned(owner, uuid);
      if (!current) return { result: undefined, changed: false };
      const next = changedCopy(current, change(this.#view(current)));
      hooks.replace(next, this.#rebased(current));
      return { result: structuredClone(next), changed: true };
    });
  }

  /** Apply `change` to every selected hook in one atomic step; if it throws for any, none is changed. */
  async updateMany(
    selection: HookSelection,
    change: (hook: StoredHook) => StoredHook | undefined,
  ): Promise<StoredHook[]> {
    return this.file.change(({ hooks }) => {
      const updated: [StoredHook, number][] = [];
      // Every change is computed before any is stored, so a throw part-way leaves all of them unstored.
      for (const current of this.#select(selection)) {
        const result = change(this.#view(current));
        if (result !== undefined) updated.push([changedCopy(current, result), this.#rebased(current)]);
      }
      for (const [hook, base] of updated) hooks.replace(hook, base);
      return { result: updated.map(([hook]) => structuredClone(hook)), changed: updated.length > 0 };
    });
  }

  /** How far the live stream has come. */
  async liveProgress(): Promise<LiveProgress> {
    return { ...this.file.state.liveStream };
  }

  /**
   * Move the live stream by `step` and store what `change` makes of the named hooks (unknown uuids
   * are skipped), in one atomic step that appends only what it wrote to the store's live log, once
   * `after` has resolved. The hooks' changes are made while `after` is pending (the payloads'
   * fsyncs), from the state as it is then; made again when a change or step came in between.
   */
  async recordLiveStep(
    step: LiveStep,
    uuids: readonly string[],
    change: (hook: StoredHook) => StoredHook | undefined,
    after?: Promise<unknown>,
  ): Promise<StoredHook[]> {
    let prepared = after && prepareLiveStep(this.file.state, uuids, change);
    await after;
    return this.file.changeLive((state) => {
      if (!prepared?.holds(state)) prepared = prepareLiveStep(state, uuids, change);
      const { updated, entries, result, definitions } = prepared;
      state.liveStream = advanceProgress(state.liveStream, step);
      updated.forEach((hook, i) => state.hooks.replaceAt(entries[i], hook, state.liveStream.evaluated));
      const changed = step.blocks > 0 || step.eventId !== undefined || updated.length > 0;
      return { result, hooks: changed ? updated : undefined, definitions };
    });
  }

  /** Remove one hook; false when the owner has no such hook. */
  async delete(owner: string, uuid: string): Promise<boolean> {
    return this.file.change(({ hooks }) => {
      if (!this.#owned(owner, uuid)) return { result: false, changed: false };
      hooks.remove(uuid);
      return { result: true, changed: true };
    });
  }

  /** Every hook of every owner, in the order they were stored; definitions shared, as the port allows. */
  async listAll(): Promise<StoredHook[]> {
    const { hooks, liveStream } = this.file.state;
    // The matcher keeps what this returns for as long as the hooks live: copying every definition
    // would hold each twice (at 100,000 hooks, about 65 MiB more).
    return Array.from(hooks.entries(), ({ hook, base }) =>
      withLiveProgress(liveStepCopy(hook), base, liveStream),
    );
  }

  /** Hooks by the status and `enabled` they are shown with, as of the live stream's progress (a pass over the hooks, copying none). */
  async statusCounts(): Promise<HookStatusCount[]> {
    const { hooks, liveStream } = this.file.state;
    const counts = new Map<string, HookStatusCount>();
    for (const { hook, base } of hooks.entries()) {
      const { status, enabled } = shownStatus(hook, base, liveStream);
      const key = `${status}:${enabled}`;
      const entry = counts.get(key);
      if (entry) entry.count++;
      else counts.set(key, { status, enabled, count: 1 });
    }
    return [...counts.values()];
  }

  /** A copy of a stored hook as the API shows it: its counters as of the live stream's progress. */
  #view(hook: StoredHook): StoredHook {
    const { hooks, liveStream } = this.file.state;
    return withLiveProgress(structuredClone(hook), hooks.baseOf(hook.uuid), liveStream);
  }

  /** The stream position a change made from `#view(hook)` is exact at. */
  #rebased(hook: StoredHook): number {
    return rebase(this.file.state.hooks.baseOf(hook.uuid), this.file.state.liveStream);
  }

  /** The stored hook itself (not a copy) when `owner` owns it. */
  #owned(owner: string, uuid: string): StoredHook | undefined {
    const hook = this.file.state.hooks.get(uuid);
    return hook?.owner === owner ? hook : undefined;
  }

  /**
   * The owner's stored hooks matching every given criterion, oldest first; the status is matched as
   * `#view` shows it, since that is the one a client sees. An empty list matches nothing.
   */
  #select({ owner, uuids, webhook_url: url, statuses }: HookSelection): StoredHook[] {
    const candidates =
      uuids === undefined
        ? this.file.state.hooks.ownedBy(owner).map(({ hook }) => hook)
        : [...new Set(uuids)]
            .map((uuid) => this.#owned(owner, uuid))
            .filter((hook): hook is StoredHook => hook !== undefined)
            .sort(compareHooks);
    return candidates.filter(
      (hook) =>
        (url === undefined || hook.definition.action.url === url) &&
        (statuses === undefined || statuses.includes(this.#view(hook).status.status)),
    );
  }
}

/**
 * A live step's hooks as `change` leaves them, made from `state` before the step is stored: the
 * copies to store, their table entries, the copies to hand back and the uuids whose definition
 * changed; `holds` tells whether they are still what the state would give.
 */
type PreparedStep = {
  updated: StoredHook[];
  entries: HookEntry[];
  result: StoredHook[];
  definitions: Set<string>;
  holds(state: StoreState): boolean;
};

function prepareLiveStep(
  state: StoreState,
  uuids: readonly string[],
  change: (hook: StoredHook) => StoredHook | undefined,
): PreparedStep {
  const updated: StoredHook[] = [];
  // Each hook's table entry, found once: in a table of 100,000 hooks a lookup is a cache miss.
  const entries: HookEntry[] = [];
  const definitions = new Set<string>();
  const { hooks, liveStream } = state;
  for (const uuid of new Set(uuids)) {
    const entry = hooks.entry(uuid);
    if (!entry) continue;
    const current = entry.hook;
    const result = change(liveView(current, entry.base, liveStream));
    if (result === undefined) continue;
    const next = liveStepCopy(sameIdentity(current, result), current.definition);
    if (next.definition !== current.definition) definitions.add(uuid);
    updated.push(next);
    entries.push(entry);
  }
  const version = hooks.version;
  return {
    updated,
    entries,
    result: updated.map((hook) => liveStepCopy(hook)),
    definitions,
    // Every change of a hook and every step replaces the table's version or the progress object.
    holds: (now) => now.hooks === hooks && now.hooks.version === version && now.liveStream === liveStream,
  };
}

/** A change's result, refused when the change moved the hook's identity or order. */
function sameIdentity(current: StoredHook, next: StoredHook): StoredHook {
  for (const field of ['uuid', 'owner', 'created_at_ms'] as const) {
    if (next?.[field] !== current[field]) {
      throw new Error(`a hook change may not alter ${field} (hook ${current.uuid})`);
    }
  }
  return next;
}

/**
 * A copy whose status and delivery state are its own while the definition (the bulk of a hook) is
 * shared, as the port allows for live steps and `listAll`, unless it is not `stored`'s. A block
 * that reaches a thousand hooks would otherwise copy a thousand definitions three times.
 */
function liveStepCopy(hook: StoredHook, stored: HookDefinition = hook.definition): StoredHook {
  // A plain spread, then its fields replaced: V8 clones an object of a known shape at once, where a
  // spread followed by more fields adds them one by one.
  const copy = { ...hook };
  copy.status = { ...hook.status };
  if (hook.definition !== stored) copy.definition = structuredClone(hook.definition);
  if (hook.delivery) copy.delivery = structuredClone(hook.delivery);
  return copy;
}

/**
 * `stored` as of the live stream's progress, as a copy whose status and delivery state are its own
 * (`liveStepCopy`). Moving the counters copies the hook and its status already, so a hook without
 * a delivery state is not copied twice.
 */
function liveView(stored: StoredHook, base: number, progress: LiveProgress): StoredHook {
  const view = withLiveProgress(stored, base, progress);
  const own = view !== stored && view.status !== stored.status && view.delivery === undefined;
  return own ? view : liveStepCopy(view);
}

/** A private copy of a change's result, refused when the change moved the hook's identity or order. */
function changedCopy(current: StoredHook, next: StoredHook): StoredHook {
  return structuredClone(sameIdentity(current, next));
}
