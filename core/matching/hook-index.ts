import type { NormalizedBlock } from '../chain/block.js';
import type { EventFilter } from '../hooks/definition.js';
import { filterKey, INDEX_SLOTS, type IndexSlot } from './filter-key.js';
import { matchTransaction } from './match-transaction.js';
import { forEachTransactionKey, type KeyVisitor } from './transaction-keys.js';

/** Hook uuid → ascending indexes into `block.transactions` of the transactions the hook matches. */
export type BlockMatches = Map<string, number[]>;

type IndexedHook = { uuid: string; candidates: Candidate[] };
/** One filter of one hook, filed in a bucket at `position` (kept current so removal is O(1)). */
type Candidate = { hook: IndexedHook; filter: EventFilter; position: number };
type Bucket = Candidate[];

/**
 * The registered hooks' filters, indexed so that matching a block costs in proportion to the
 * block's size and to the filters that could match it, not to the number of hooks registered.
 *
 * Each filter is filed once, under its most selective narrowing field (`filterKey`), or in its
 * type's wildcard bucket when it has none. For each transaction the index lists every key a
 * matching filter could be filed under (`forEachTransactionKey`), gathers those buckets, and
 * confirms each candidate with the reference `matchTransaction`: the index can make matching
 * faster, never different.
 *
 * Filters are kept by reference: do not change them after `add` (hook definitions are replaced
 * whole, by `add` again).
 */
export class HookIndex {
  readonly #hooks = new Map<string, IndexedHook>();
  readonly #slots = Object.fromEntries(INDEX_SLOTS.map((slot) => [slot, new Map<string, Bucket>()])) as Record<
    IndexSlot,
    Map<string, Bucket>
  >;

  /** Registers a hook's filters, replacing those of a hook already registered under `uuid`. */
  add(uuid: string, filters: readonly EventFilter[]): void {
    this.remove(uuid);
    const hook: IndexedHook = { uuid, candidates: [] };
    for (const filter of filters) {
      const { slot, key } = filterKey(filter);
      const slotMap = this.#slots[slot];
      let bucket = slotMap.get(key);
      if (bucket === undefined) {
        bucket = [];
        slotMap.set(key, bucket);
      }
      const candidate: Candidate = { hook, filter, position: bucket.length };
      bucket.push(candidate);
      hook.candidates.push(candidate);
    }
    this.#hooks.set(uuid, hook);
  }

  /** Forgets a hook; nothing happens for an unknown uuid. */
  remove(uuid: string): void {
    const hook = this.#hooks.get(uuid);
    if (hook === undefined) return;
    for (const candidate of hook.candidates) {
      const { slot, key } = filterKey(candidate.filter);
      const slotMap = this.#slots[slot];
      const bucket = slotMap.get(key);
      if (bucket === undefined) throw new Error(`hook index: no bucket ${slot} ${key} for hook ${uuid}`);
      // Swap with the last entry: order inside a bucket does not matter.
      const last = bucket.pop()!;
      if (last !== candidate) {
        bucket[candidate.position] = last;
        last.position = candidate.position;
      }
      if (bucket.length === 0) slotMap.delete(key);
    }
    this.#hooks.delete(uuid);
  }

  /** Whether a hook is registered under `uuid`. */
  has(uuid: string): boolean {
    return this.#hooks.has(uuid);
  }

  /** How many hooks are registered. */
  get size(): number {
    return this.#hooks.size;
  }

  /** The hooks that match some transaction of the block, each with the indexes of the transactions it matches, ascending. */
  matchBlock(block: NormalizedBlock): BlockMatches {
    const matches: BlockMatches = new Map();
    if (this.#hooks.size === 0) return matches;
    const slots = this.#slots;
    // A set, so that a key a transaction yields many times (fifty transfers of one token) costs one pass.
    const buckets = new Set<Bucket>();
    const visit: KeyVisitor = (slot, key) => {
      const bucket = slots[slot].get(key);
      if (bucket !== undefined) buckets.add(bucket);
    };
    const transactions = block.transactions;
    for (let index = 0; index < transactions.length; index++) {
      const tx = transactions[index];
      buckets.clear();
      forEachTransactionKey(tx, visit);
      for (const bucket of buckets) {
        for (const { hook, filter } of bucket) {
          const found = matches.get(hook.uuid);
          // Already matched through another of its filters.
          if (found !== undefined && found[found.length - 1] === index) continue;
          if (!matchTransaction(filter, tx)) continue;
          if (found === undefined) matches.set(hook.uuid, [index]);
          else found.push(index);
        }
      }
    }
    return matches;
  }
}
