import type { NormalizedBlock, NormalizedTransaction } from '../chain/block.js';
import type { EventFilter } from '../hooks/definition.js';
import { balanceAccount } from './balance-account.js';
import { filterKey, INDEX_SLOTS, type IndexSlot } from './filter-key.js';
import { isEventLevel, matchEvent } from './match-event.js';
import { matchTransaction } from './match-transaction.js';
import { forEachTransactionKey, type KeySource, type KeyVisitor } from './transaction-keys.js';

/**
 * Hook uuid → ascending indexes into `block.transactions` of the transactions the hook matches.
 * Read-only: a one-transaction list is shared and frozen (see `onlyTransaction`).
 */
export type BlockMatches = Map<string, readonly number[]>;

/** Receives one hook that matches a block, with the ascending indexes of the transactions it matches (read-only). */
export type MatchVisitor = (uuid: string, txIndexes: readonly number[]) => void;

/**
 * One filter of one hook, filed under its key. Three roles share this one object, so that the
 * common hook (one filter, alone under its key) costs a single object and `matchBlock` touches one
 * object per candidate:
 * - a node of its key's bucket: a doubly linked list (`prev`, `next`) whose head is what the
 *   slot's map holds, so removal is O(1). `exact` when reaching the key is a match (see
 *   FilterKey). The head carries the bucket's state: `inexact`, how many of its filters need
 *   confirming, and, as scratch for `forEachMatch`, `visit` (the transaction visit that last
 *   reached the bucket) and `reachedAt` (where that visit listed it);
 * - the hook: `owner` is the hook's first filter (itself for that one), which holds the `uuid`,
 *   all the hook's filters in `siblings` (null when it has one), and, as scratch for
 *   `forEachMatch`, `block` (the block being matched when the hook last matched) and `matchedAt`
 *   (where that block's match lists it).
 * The scratch is numbers only: what a match collects (sources, transaction lists) lives in arrays
 * local to the call, so a match writes no new object into these long-lived ones (such writes cost
 * the garbage collector a remembered slot each) and the index never keeps a block alive.
 */
type Candidate = {
  owner: Candidate;
  uuid: string;
  filter: EventFilter;
  exact: boolean;
  prev: Candidate | null;
  next: Candidate | null;
  inexact: number;
  visit: number;
  reachedAt: number;
  siblings: Candidate[] | null;
  block: number;
  matchedAt: number;
};

/** The shared `[index]` lists, by index. */
const ONLY_TRANSACTION: (readonly number[])[] = [];

/**
 * The list `[index]`, shared and frozen: most matching hooks match one transaction of a block, and
 * sharing their lists saves an allocation per match; frozen, so that a caller that writes to one
 * fails loudly rather than changes another hook's matches.
 */
function onlyTransaction(index: number): readonly number[] {
  let list = ONLY_TRANSACTION[index];
  if (list === undefined) {
    list = Object.freeze([index]);
    ONLY_TRANSACTION[index] = list;
  }
  return list;
}

/**
 * The registered hooks' filters, indexed so that matching a block costs in proportion to the
 * block's size and to the filters that could match it, not to the number of hooks registered.
 *
 * Each filter is filed once, under its most selective narrowing field (`filterKey`), or in its
 * type's wildcard bucket when it has none. For each transaction the index lists every key a
 * matching filter could be filed under, with the event or operation that yields it
 * (`forEachTransactionKey`), gathers the buckets those keys find, and confirms each candidate
 * against those sources only, with the reference's own per-event test (`matchEvent`), the
 * operation's account, or `matchTransaction` for kind filters; a filter whose key says all it asks
 * needs no confirming. So a confirmation costs the few events that named the key, not the whole
 * transaction, and the index can make matching faster, never different.
 *
 * Filters are kept by reference: do not change them after `add` (hook definitions are replaced
 * whole, by `add` again). `forEachMatch` marks the buckets and hooks it reaches (numbers stamped
 * per call: no map lookups per candidate) and calls back only once matching is done, so a call
 * made from a callback cannot disturb the one that made it.
 */
export class HookIndex {
  readonly #hooks = new Map<string, Candidate>();
  readonly #slots = Object.fromEntries(
    INDEX_SLOTS.map((slot) => [slot, new Map<string, Candidate>()]),
  ) as Record<IndexSlot, Map<string, Candidate>>;
  #blocks = 0;
  #visits = 0;

  /** Registers a hook's filters, replacing those of a hook already registered under `uuid`. */
  add(uuid: string, filters: readonly EventFilter[]): void {
    this.remove(uuid);
    if (filters.length === 0) return;
    const candidates = filters.map((filter) => {
      const { slot, key, exact } = filterKey(filter);
      const candidate: Candidate = {
        owner: null as unknown as Candidate, // set below, once the first filter is made
        uuid,
        filter,
        exact,
        prev: null,
        next: null,
        inexact: 0,
        visit: -1,
        reachedAt: -1,
        siblings: null,
        block: -1,
        matchedAt: -1,
      };
      this.#file(slot, key, candidate);
      return candidate;
    });
    const owner = candidates[0];
    for (const candidate of candidates) candidate.owner = owner;
    if (candidates.length > 1) owner.siblings = candidates;
    this.#hooks.set(uuid, owner);
  }

  /** Forgets a hook; nothing happens for an unknown uuid. */
  remove(uuid: string): void {
    const owner = this.#hooks.get(uuid);
    if (owner === undefined) return;
    for (const candidate of owner.siblings ?? [owner]) {
      const { slot, key } = filterKey(candidate.filter);
      const slotMap = this.#slots[slot];
      const head = slotMap.get(key);
      if (head === undefined) throw new Error(`hook index: no bucket ${slot} ${key} for hook ${uuid}`);
      const inexact = head.inexact - (candidate.exact ? 0 : 1);
      const next = candidate.next;
      if (candidate === head) {
        if (next === null) {
          slotMap.delete(key);
        } else {
          next.prev = null;
          next.inexact = inexact;
          slotMap.set(key, next);
        }
      } else {
        candidate.prev!.next = next;
        if (next !== null) next.prev = candidate.prev;
        head.inexact = inexact;
      }
    }
    this.#hooks.delete(uuid);
  }

  /** Files a candidate in its key's bucket: as the head of a new one, or second in an existing one. */
  #file(slot: IndexSlot, key: string, candidate: Candidate): void {
    const slotMap = this.#slots[slot];
    const head = slotMap.get(key);
    if (head === undefined) {
      candidate.inexact = candidate.exact ? 0 : 1;
      slotMap.set(key, candidate);
      return;
    }
    // Second in the list: the head, and so the map, stay as they are.
    candidate.prev = head;
    candidate.next = head.next;
    if (head.next !== null) head.next.prev = candidate;
    head.next = candidate;
    if (!candidate.exact) head.inexact++;
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
    this.forEachMatch(block, (uuid, txIndexes) => matches.set(uuid, txIndexes));
    return matches;
  }

  /**
   * Calls `onMatch` once for each hook that matches some transaction of the block, in no set
   * order: `matchBlock` without building its map, for callers that only go through the matches
   * once (a map costs more than the rest of a match when most hooks match little). `onMatch` runs
   * after matching is done, so it may add or remove hooks, or match another block.
   */
  forEachMatch(block: NormalizedBlock, onMatch: MatchVisitor): void {
    if (this.#hooks.size === 0) return;
    const blockNumber = ++this.#blocks;
    const slots = this.#slots;
    // The buckets (their heads) the current transaction reaches, each once, and for those with a
    // filter to confirm, the events or operations that reached them. A count, not
    // `reached.length = 0`: setting an array's length is a slow runtime call.
    const reached: Candidate[] = [];
    const reachedBy: KeySource[][] = [];
    let reachedCount = 0;
    let visitNumber = 0;
    const visit: KeyVisitor = (slot, key, source) => {
      const head = slots[slot].get(key);
      if (head === undefined) return;
      if (head.visit !== visitNumber) {
        head.visit = visitNumber;
        head.reachedAt = reachedCount;
        if (head.inexact > 0) reachedBy[reachedCount] = [source];
        reached[reachedCount++] = head;
      } else if (head.inexact > 0) {
        reachedBy[head.reachedAt].push(source);
      }
    };
    // The matching hooks' uuids in the order they first matched, and each one's transaction
    // indexes. The uuid is taken while the hook is at hand, not looked up again for the callback.
    const uuids: string[] = [];
    const found: (readonly number[])[] = [];
    const transactions = block.transactions;
    for (let index = 0; index < transactions.length; index++) {
      const tx = transactions[index];
      visitNumber = ++this.#visits;
      reachedCount = 0;
      forEachTransactionKey(tx, visit);
      for (let r = 0; r < reachedCount; r++) {
        const head = reached[r];
        for (let candidate: Candidate | null = head; candidate !== null; candidate = candidate.next) {
          const hook = candidate.owner;
          const isNew = hook.block !== blockNumber;
          const list = isNew ? null : found[hook.matchedAt];
          // Already matched through another of its filters.
          if (list !== null && list[list.length - 1] === index) continue;
          if (!candidate.exact && !confirmed(candidate.filter, tx, reachedBy[r])) continue;
          if (list === null) {
            hook.block = blockNumber;
            hook.matchedAt = uuids.length;
            uuids.push(hook.uuid);
            found.push(onlyTransaction(index));
          } else if (list.length === 1) {
            found[hook.matchedAt] = [list[0], index];
          } else {
            // Longer than one: a list this call made, not a shared one.
            (list as number[]).push(index);
          }
        }
      }
    }
    // Callbacks only now, with the scratch no longer read, so that one may change the index or match another block.
    for (let i = 0; i < uuids.length; i++) onMatch(uuids[i], found[i]);
  }
}

/** Whether the filter matches the transaction through one of the sources that led to it. */
function confirmed(filter: EventFilter, tx: NormalizedTransaction, sources: readonly KeySource[]): boolean {
  for (const source of sources) {
    if (source === null) return matchTransaction(filter, tx);
    if ('event_index' in source) {
      if (isEventLevel(filter) && matchEvent(filter, source, tx.metadata.sender_address)) return true;
    } else if (filter.type === 'balance_change' && balanceAccount(source) === filter.principal) {
      return true;
    }
  }
  return false;
}
