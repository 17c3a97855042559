import type { StoredBackfill } from '../backfill/backfill.js';

/**
 * Where backfills are kept, so that one survives a restart and goes on where it stopped. A store
 * may forget the oldest finished backfills of a hook beyond a bound it documents.
 */
export interface BackfillStore {
  /** Keep a new backfill durably. */
  create(backfill: StoredBackfill): Promise<void>;
  /** One backfill of a hook, or undefined. */
  get(hookUuid: string, id: string): Promise<StoredBackfill | undefined>;
  /** A hook's backfills, newest first. */
  list(hookUuid: string): Promise<StoredBackfill[]>;
  /** Every backfill not finished (queued or running), oldest first: what a scan engine runs. */
  unfinished(): Promise<StoredBackfill[]>;
  /**
   * Replace one backfill with what `change` makes of its current version, as one step against
   * other writers (a cancel and a scan's progress do not lose each other); undefined when unknown.
   */
  update(
    id: string,
    change: (current: StoredBackfill) => StoredBackfill,
  ): Promise<StoredBackfill | undefined>;
}

/** Inversify token for the BackfillStore. */
export const BACKFILL_STORE = Symbol.for('stackhooks.BackfillStore');
