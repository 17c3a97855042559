import type { Database } from './database.js';

/** Hook rows written since the last vacuum that make the next one due. */
export const HOOK_VACUUM_ROWS = 1_000;

/** Least time between two vacuums of the hooks by one process, in ms. */
export const HOOK_VACUUM_INTERVAL_MS = 5_000;

/**
 * Vacuums the hooks table once enough of its rows have been written, so its pages stay marked
 * all-visible whether or not the database's autovacuum runs. An owner's listing skips its offset on
 * the owner's index alone only where the pages are all-visible: on pages just written the skip
 * reads every row it passes, and the planner, seeing few visible pages, sorts all the owner's rows
 * instead (at 100,000 hooks, 60–90 ms a page where a vacuumed table answers in under 10). A vacuum
 * after inserts alone reads only the pages written since the last one. It runs in the background,
 * one at a time; `SKIP_LOCKED` leaves the table to autovacuum or another process vacuuming it, and
 * a plain vacuum blocks no reads or writes.
 */
export class HookVacuum {
  #written = 0;
  #lastAt = -Infinity;
  #running: Promise<void> | undefined;

  constructor(
    private readonly db: Database,
    private readonly rows = HOOK_VACUUM_ROWS,
    private readonly intervalMs = HOOK_VACUUM_INTERVAL_MS,
  ) {}

  /** Count `rows` hook rows written; starts a vacuum when enough were, and the interval has passed. */
  written(rows: number): void {
    this.#written += rows;
    const now = Date.now();
    if (this.#running || this.#written < this.rows || now - this.#lastAt < this.intervalMs) return;
    // A closed pool cannot run it; the next process's writes will.
    if (this.db.pool.ending) return;
    this.#written = 0;
    this.#lastAt = now;
    // TRUNCATE false: giving back empty pages at the table's end takes a lock that stops every read
    // of the hooks (each block reads them) for a moment; the next inserts reuse those pages anyway.
    this.#running = this.db.pool.query('VACUUM (SKIP_LOCKED, TRUNCATE false) hooks').then(
      () => {
        this.#running = undefined;
      },
      (err: unknown) => {
        this.#running = undefined;
        // The writes succeeded: their pages wait for the next vacuum, or autovacuum.
        process.emitWarning(
          `stackhooks: the hooks table could not be vacuumed (${err instanceof Error ? err.message : String(err)}); retrying after the next ${this.rows} writes`,
        );
      },
    );
  }

  /** Resolves once the vacuum under way, if any, has ended. */
  async settled(): Promise<void> {
    await this.#running;
  }
}
