import { inject, injectable } from 'inversify';
import type { StoredHook } from '../../core/hooks/record.js';
import type { HookPage, HookRepository, HookSelection } from '../../core/ports/hook-repository.js';
import { compareHooks } from './hook-table.js';
import { STORE_FILE } from './store-file.js';
import type { StoreFile } from './store-file.js';

/**
 * Hooks in the embedded JSON file. Every result is a copy and every stored hook is a copy of what the
 * caller gave, so no caller can reach into the store's state; change functions get a copy too, so one
 * that edits its argument and then throws leaves the stored hook as it was.
 */
@injectable()
export class LowdbHookRepository implements HookRepository {
  constructor(@inject(STORE_FILE) private readonly file: StoreFile) {}

  /** Store a new hook unless its owner already has `maxPerOwner`; a repeated uuid is refused with an error. */
  async insert(hook: StoredHook, maxPerOwner: number): Promise<boolean> {
    const copy = structuredClone(hook);
    return this.file.change(({ hooks }) => {
      if (hooks.get(copy.uuid)) throw new Error(`hook ${copy.uuid} is already stored`);
      if (hooks.countOf(copy.owner) >= maxPerOwner) return { result: false, changed: false };
      hooks.add(copy);
      return { result: true, changed: true };
    });
  }

  /** One owner's hook, or undefined. */
  async get(owner: string, uuid: string): Promise<StoredHook | undefined> {
    const hook = this.#owned(owner, uuid);
    return hook && structuredClone(hook);
  }

  /** A hook whoever owns it, or undefined. */
  async getByUuid(uuid: string): Promise<StoredHook | undefined> {
    const hook = this.file.state.hooks.get(uuid);
    return hook && structuredClone(hook);
  }

  /** The hooks with these uuids that exist, whoever owns them. */
  async getByUuids(uuids: readonly string[]): Promise<StoredHook[]> {
    const found = [...new Set(uuids)].map((uuid) => this.file.state.hooks.get(uuid));
    return found.filter((hook) => hook !== undefined).map((hook) => structuredClone(hook));
  }

  /** A page of one owner's hooks, oldest first. */
  async list(owner: string, offset: number, limit: number): Promise<HookPage> {
    const owned = this.file.state.hooks.ownedBy(owner);
    const start = Math.max(0, offset);
    const page = owned.slice(start, start + Math.max(0, limit));
    return { total: owned.length, results: page.map((hook) => structuredClone(hook)) };
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
      const next = changedCopy(current, change(structuredClone(current)));
      hooks.replace(next);
      return { result: structuredClone(next), changed: true };
    });
  }

  /** Apply `change` to every selected hook in one atomic step; if it throws for any, none is changed. */
  async updateMany(
    selection: HookSelection,
    change: (hook: StoredHook) => StoredHook | undefined,
  ): Promise<StoredHook[]> {
    return this.file.change(({ hooks }) => {
      const updated: StoredHook[] = [];
      // Every change is computed before any is stored, so a throw part-way leaves all of them unstored.
      for (const current of this.#select(selection)) {
        const result = change(structuredClone(current));
        if (result !== undefined) updated.push(changedCopy(current, result));
      }
      for (const hook of updated) hooks.replace(hook);
      return { result: updated.map((hook) => structuredClone(hook)), changed: updated.length > 0 };
    });
  }

  /**
   * Apply `change` to the hooks with these uuids across owners, in one atomic step (unknown uuids are
   * skipped). This is the live stream's counter write for every enabled hook on every block, so it
   * makes no copies (three per hook cost ~45 ms a block at 1,000 hooks): as the port says, `change`
   * must not modify its argument and the hooks returned are read-only.
   */
  async updateByUuids(
    uuids: readonly string[],
    change: (hook: StoredHook) => StoredHook | undefined,
  ): Promise<StoredHook[]> {
    return this.file.change(({ hooks }) => {
      const updated: StoredHook[] = [];
      for (const uuid of new Set(uuids)) {
        const current = hooks.get(uuid);
        if (!current) continue;
        const result = change(current);
        if (result !== undefined) updated.push(sameIdentity(current, result));
      }
      for (const hook of updated) hooks.replace(hook);
      return { result: updated, changed: updated.length > 0 };
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

  /** Every hook of every owner, in the order they were stored. */
  async listAll(): Promise<StoredHook[]> {
    return Array.from(this.file.state.hooks.all(), (hook) => structuredClone(hook));
  }

  /** The stored hook itself (not a copy) when `owner` owns it. */
  #owned(owner: string, uuid: string): StoredHook | undefined {
    const hook = this.file.state.hooks.get(uuid);
    return hook?.owner === owner ? hook : undefined;
  }

  /** The owner's hooks matching every given criterion, oldest first. An empty list matches nothing. */
  #select({ owner, uuids, webhook_url: url, statuses }: HookSelection): StoredHook[] {
    const candidates =
      uuids === undefined
        ? this.file.state.hooks.ownedBy(owner)
        : [...new Set(uuids)]
            .map((uuid) => this.#owned(owner, uuid))
            .filter((hook): hook is StoredHook => hook !== undefined)
            .sort(compareHooks);
    return candidates.filter(
      (hook) =>
        (url === undefined || hook.definition.action.url === url) &&
        (statuses === undefined || statuses.includes(hook.status.status)),
    );
  }
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

/** A private copy of a change's result, refused when the change moved the hook's identity or order. */
function changedCopy(current: StoredHook, next: StoredHook): StoredHook {
  return structuredClone(sameIdentity(current, next));
}
