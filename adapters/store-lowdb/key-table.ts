import type { ApiKeyRecord } from '../../core/accounts/api-key.js';

/**
 * The API key records held in memory, indexed by id (to revoke) and by hash (every request
 * authenticates by hash, so that lookup is O(1)). Callers copy on the way in and out.
 */
export class KeyTable {
  readonly #byId = new Map<string, ApiKeyRecord>();
  readonly #byHash = new Map<string, ApiKeyRecord>();
  /** The ids added or replaced since `takeTouched` was last called. */
  #touched = new Set<string>();

  constructor(keys: Iterable<ApiKeyRecord> = []) {
    for (const key of keys) this.add(key);
  }

  /** The ids added or replaced since the last call, so a change can be journaled. */
  takeTouched(): Set<string> {
    const touched = this.#touched;
    this.#touched = new Set();
    return touched;
  }

  /** The record with this id. */
  byId(id: string): ApiKeyRecord | undefined {
    return this.#byId.get(id);
  }

  /** The record with this hash. */
  byHash(hash: string): ApiKeyRecord | undefined {
    return this.#byHash.get(hash);
  }

  /** Every record, in the order they were added. */
  all(): IterableIterator<ApiKeyRecord> {
    return this.#byId.values();
  }

  /** Add a record whose id and hash are both new: either repeated would make a lookup ambiguous. */
  add(key: ApiKeyRecord): void {
    if (this.#byId.has(key.id)) throw new Error(`an API key with id ${key.id} is already stored`);
    if (this.#byHash.has(key.hash))
      throw new Error(`an API key with the hash of key ${key.id} is already stored`);
    this.#byId.set(key.id, key);
    this.#byHash.set(key.hash, key);
    this.#touched.add(key.id);
  }

  /** Swap in a new version of a stored record with the same id and hash. */
  replace(key: ApiKeyRecord): void {
    const old = this.#byId.get(key.id);
    if (!old || old.hash !== key.hash) throw new Error(`API key ${key.id} is not stored with that hash`);
    this.#byId.set(key.id, key);
    this.#byHash.set(key.hash, key);
    this.#touched.add(key.id);
  }
}
