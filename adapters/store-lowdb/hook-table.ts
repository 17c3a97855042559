import type { StoredHook } from '../../core/hooks/record.js';

/** Listing order: oldest first by creation time, ties broken by uuid so the order is total. */
export function compareHooks(a: StoredHook, b: StoredHook): number {
  if (a.created_at_ms !== b.created_at_ms) return a.created_at_ms - b.created_at_ms;
  return a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0;
}

/** The table's entry for one hook: the hook as stored, and the live stream position it was stored at. */
export type HookEntry = { readonly hook: StoredHook; readonly base: number };

type MutableEntry = { hook: StoredHook; base: number };

/**
 * The hooks held in memory, indexed by uuid and by owner so `get` is O(1) and a page is a slice, each
 * with the live stream position it was stored at (its counters are exact as of that position).
 * Both indexes hold one entry per hook, which a replace rewrites in place: a live step's replaces
 * neither search the owner's list nor set the uuid index again.
 * It stores whatever objects it is given: callers copy on the way in and out.
 */
export class HookTable {
  readonly #byUuid = new Map<string, MutableEntry>();
  /** Each owner's hooks in listing order. */
  readonly #byOwner = new Map<string, MutableEntry[]>();
  /** The uuids added, replaced or removed since `takeTouched` was last called. */
  #touched = new Set<string>();
  #version = 0;

  constructor(hooks: Iterable<StoredHook> = [], bases: { [uuid: string]: number } = {}) {
    for (const hook of hooks) this.add(hook, bases[hook.uuid] ?? 0);
  }

  /** The uuids added, replaced or removed since the last call, so a change can be journaled. */
  takeTouched(): Set<string> {
    const touched = this.#touched;
    this.#touched = new Set();
    return touched;
  }

  /** Every hook's stream position where it is not 0, as a copy. */
  basesSnapshot(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [uuid, { base }] of this.#byUuid) if (base !== 0) out.set(uuid, base);
    return out;
  }

  /** The hook with this uuid, whoever owns it. */
  get(uuid: string): StoredHook | undefined {
    return this.#byUuid.get(uuid)?.hook;
  }

  /** The hook with this uuid and its stream position, whoever owns it. */
  entry(uuid: string): HookEntry | undefined {
    return this.#byUuid.get(uuid);
  }

  /** The live stream position a hook was stored at; 0 for an unknown uuid. */
  baseOf(uuid: string): number {
    return this.#byUuid.get(uuid)?.base ?? 0;
  }

  /** A number that changes whenever a hook is added, replaced or removed. */
  get version(): number {
    return this.#version;
  }

  /** How many hooks the table holds. */
  get size(): number {
    return this.#byUuid.size;
  }

  /** How many hooks this owner has. */
  countOf(owner: string): number {
    return this.#byOwner.get(owner)?.length ?? 0;
  }

  /** The owner's hooks in listing order; the array is the table's own, so callers must not change it. */
  ownedBy(owner: string): readonly HookEntry[] {
    return this.#byOwner.get(owner) ?? [];
  }

  /** Every hook, in the order they were added, as a new array. */
  all(): StoredHook[] {
    return Array.from(this.#byUuid.values(), (entry) => entry.hook);
  }

  /** Every hook with its stream position, in the order they were added. */
  entries(): IterableIterator<HookEntry> {
    return this.#byUuid.values();
  }

  /** Add a hook whose uuid is not in the table yet, stored at stream position `base`. */
  add(hook: StoredHook, base: number): void {
    if (this.#byUuid.has(hook.uuid)) throw new Error(`hook ${hook.uuid} is already stored`);
    const entry = { hook, base };
    this.#version++;
    this.#byUuid.set(hook.uuid, entry);
    this.#touched.add(hook.uuid);
    let list = this.#byOwner.get(hook.owner);
    if (!list) {
      list = [];
      this.#byOwner.set(hook.owner, list);
    }
    // Time only moves forward, so the slot is nearly always the end; search anyway so the order holds.
    list.splice(this.#slot(list, hook), 0, entry);
  }

  /** Swap in a new version of a stored hook, stored at `base`; its uuid, owner and creation time must be the same. */
  replace(hook: StoredHook, base: number): void {
    const entry = this.#byUuid.get(hook.uuid);
    if (!entry) throw new Error(`hook ${hook.uuid} is not stored`);
    this.replaceAt(entry, hook, base);
  }

  /** `replace` through the hook's entry (from `entry`, the table unchanged since): no lookup. */
  replaceAt(held: HookEntry, hook: StoredHook, base: number): void {
    const entry = held as MutableEntry;
    if (entry.hook.uuid !== hook.uuid) throw new Error(`hook ${hook.uuid} is not stored at this entry`);
    this.#version++;
    entry.hook = hook;
    entry.base = base;
    this.#touched.add(hook.uuid);
  }

  /** Remove a hook; false when the uuid is unknown. */
  remove(uuid: string): boolean {
    const entry = this.#byUuid.get(uuid);
    if (!entry) return false;
    const { hook } = entry;
    this.#version++;
    this.#byUuid.delete(uuid);
    this.#touched.add(uuid);
    const list = this.#byOwner.get(hook.owner)!;
    list.splice(this.#indexOf(list, hook), 1);
    if (list.length === 0) this.#byOwner.delete(hook.owner);
    return true;
  }

  /** The first position whose hook sorts after `hook` (binary search). */
  #slot(list: readonly HookEntry[], hook: StoredHook): number {
    let low = 0;
    let high = list.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareHooks(list[middle].hook, hook) <= 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  #indexOf(list: readonly HookEntry[], hook: StoredHook): number {
    const index = this.#slot(list, hook) - 1;
    if (list[index]?.hook.uuid !== hook.uuid) throw new Error(`hook index out of order at ${hook.uuid}`);
    return index;
  }
}
