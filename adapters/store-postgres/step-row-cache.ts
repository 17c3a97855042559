import type { StoredRow } from './hook-rows.js';

/** A hook row's state as a live step reads it: everything but the definition (`DefinitionCache` keeps those). */
export type StepRowState = Omit<StoredRow, 'definition'>;

/** Hooks whose rows are kept at most; past it the cache starts again empty. */
const DEFAULT_LIMIT = 50_000;

type Entry = { version: string; occurrences: string | null; state: StepRowState };

/**
 * The hook rows live steps have read, by hook, each with the version of its hook row and of its row
 * of counted occurrences (`xmin` and `ctid`: any write of a row makes a row version with others).
 * A step locks its hooks and reads only those versions; the state of a hook whose two versions are
 * the ones kept is taken from here, so a block that reaches a thousand hooks neither sends nor
 * parses a thousand rows it read or wrote itself the block before. A version kept from a write that
 * was rolled back never matches a read: a rolled-back row version is never the one read.
 */
export class StepRowCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly limit = DEFAULT_LIMIT) {}

  /**
   * The state kept for the hook at these row versions, as a fresh copy the caller may edit (its
   * status and delivery state included), or undefined.
   */
  get(uuid: string, version: string, occurrences: string | null): StepRowState | undefined {
    const entry = this.entries.get(uuid);
    if (entry?.version !== version || entry.occurrences !== occurrences) return undefined;
    return copyOf(entry.state);
  }

  /** Keep a hook's state as read at these row versions (kept as a copy of its own). */
  set(uuid: string, version: string, occurrences: string | null, state: StepRowState): void {
    // Entries of hooks deleted elsewhere stay until asked for again; a bound keeps them from piling up.
    if (this.entries.size >= this.limit && !this.entries.has(uuid)) this.entries.clear();
    this.entries.set(uuid, { version, occurrences, state: copyOf(state) });
  }

  /** The step wrote the hook's occurrences (row version `occurrences`), its hook row left as it was. */
  counted(uuid: string, occurrences: string, count: number, at: number | null, height: number | null): void {
    const entry = this.entries.get(uuid);
    if (!entry) return;
    entry.occurrences = occurrences;
    // The kept state is this cache's own (`get` hands out copies), so it is brought up to date in
    // place, as a read returns the columns: bigints as strings.
    entry.state.o_count = String(count);
    entry.state.o_at = at === null ? null : String(at);
    entry.state.o_height = height === null ? null : String(height);
  }

  /** Forget a hook (its row written whole, or deleted here). */
  forget(uuid: string): void {
    this.entries.delete(uuid);
  }
}

// Field by field: a row as the driver builds it is slow to spread, and a step copies a thousand.
function copyOf(state: StepRowState): StepRowState {
  return {
    uuid: state.uuid,
    owner: state.owner,
    created_at_ms: state.created_at_ms,
    status: { ...state.status },
    delivery: state.delivery === null ? null : structuredClone(state.delivery),
    live_base: state.live_base,
    o_count: state.o_count,
    o_at: state.o_at,
    o_height: state.o_height,
  };
}
