import type { Database } from './database.js';

/** The outbox's tables whose rows churn: deleted by prunes, emptied of bodies, updated each delivery. */
const CHURNING_TABLES = ['outbox_payloads', 'outbox_block_texts', 'outbox_queues', 'outbox_sent_blocks'];

/** Least time between two vacuums of the outbox by one process, in ms. */
export const OUTBOX_VACUUM_INTERVAL_MS = 60_000;

/**
 * Vacuums the outbox's churning tables after prunes, at most once an interval, so that the space of
 * the rows a prune deleted is reused while the server runs whether or not the database's
 * autovacuum does (it can be turned off, and is slow to reach tables that churn this fast); without
 * it the outbox grows with uptime, not with the retention. `SKIP_LOCKED` leaves a table that another
 * process or autovacuum is vacuuming to it, so processes sharing the database never wait on each
 * other. A plain vacuum takes no lock that blocks reads or writes.
 */
export class OutboxVacuum {
  private lastAt = -Infinity;

  constructor(
    private readonly db: Database,
    private readonly intervalMs = OUTBOX_VACUUM_INTERVAL_MS,
  ) {}

  /** Vacuum if the interval has passed since the last one; a failure is warned of and tried again later. */
  async afterPrune(): Promise<void> {
    const now = Date.now();
    if (now - this.lastAt < this.intervalMs) return;
    this.lastAt = now;
    try {
      await this.db.pool.query(`VACUUM (SKIP_LOCKED) ${CHURNING_TABLES.join(', ')}`);
    } catch (err) {
      // The prune itself succeeded: the space waits for the next vacuum, or autovacuum.
      process.emitWarning(
        `stackhooks: the outbox tables could not be vacuumed (${err instanceof Error ? err.message : String(err)}); retrying in ${Math.round(this.intervalMs / 1000)} s`,
      );
    }
  }
}
