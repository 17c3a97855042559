import type { EventLog, EventLogPosition, RawEvent } from '../../core/ports/event-log.js';
import type { Database } from './database.js';

/** Appends that arrive together share one transaction (one commit, one WAL flush), up to these bounds. */
const MAX_BATCH_ENTRIES = 1000;
const MAX_BATCH_CHARS = 32 * 1024 * 1024;

type Pending = {
  path: string;
  body: string;
  receivedAt: number;
  resolve: (id: number) => void;
  reject: (err: unknown) => void;
};
type EventRow = { id: string; received_at: string; path: string; body: string };

/**
 * The raw event log in Postgres. Ids come from a one-row counter advanced with `UPDATE … RETURNING`
 * inside the transaction that inserts the entries: the row lock serializes appenders (of this process
 * and of any other) until commit, so ids commit in order and a rollback returns its ids unused. A
 * reader therefore only ever sees a gap-free prefix, which a sequence or identity column would not
 * give (a higher id could commit before a lower one still in flight). Serializing costs little,
 * because appends waiting meanwhile are committed together in the next transaction.
 */
export class PgEventLog implements EventLog {
  readonly #db: Database;
  #queue: Pending[] = [];
  #flushing: Promise<void> | undefined;
  #lastId: number;

  private constructor(db: Database, lastId: number) {
    this.#db = db;
    this.#lastId = lastId;
  }

  /** The event log of a migrated database. */
  static async open(db: Database): Promise<PgEventLog> {
    const { rows } = await db.pool.query<{ last_id: string }>('SELECT last_id FROM event_log_counter');
    return new PgEventLog(db, Number(rows[0].last_id));
  }

  /** Store one posted body; resolves with its id once the transaction holding it has committed. */
  append(path: string, body: string, receivedAt: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ path, body, receivedAt, resolve, reject });
      this.#flushing ??= this.#flush();
    });
  }

  /** The newest id this instance has appended, read or been told of (another process may have appended since). */
  lastId(): number {
    return this.#lastId;
  }

  /** Take note of an entry another appender (the observer's own thread) has committed. */
  follow(newest: { id: number }): void {
    this.#lastId = Math.max(this.#lastId, newest.id);
  }

  /** Up to `limit` entries after `afterId`, in id order. */
  async readAfter(afterId: number, limit: number): Promise<RawEvent[]> {
    const { rows } = await this.#db.pool.query<EventRow>(
      'SELECT id, received_at, path, body FROM event_log WHERE id > $1 ORDER BY id LIMIT $2',
      [afterId, limit],
    );
    const events = rows.map((row) => ({
      id: Number(row.id),
      received_at: Number(row.received_at),
      path: row.path,
      body: row.body,
    }));
    if (events.length > 0) this.#lastId = Math.max(this.#lastId, events[events.length - 1].id);
    return events;
  }

  /** The last processed id (0 when none). */
  async processedId(): Promise<number> {
    const { rows } = await this.#db.pool.query<{ processed_id: string }>(
      'SELECT processed_id FROM event_log_processed',
    );
    return Number(rows[0].processed_id);
  }

  /** The note saved with the last processed mark. */
  async processedNote(): Promise<string | undefined> {
    const { rows } = await this.#db.pool.query<{ note: string | null }>(
      'SELECT note FROM event_log_processed',
    );
    return rows[0].note ?? undefined;
  }

  /**
   * Record progress; the mark never moves back, and a mark without a note, or behind the stored one,
   * keeps the stored note. (A processor that lost its lock may still have a mark in flight: landing
   * late, it must not put its older state beside the newer mark.)
   */
  async markProcessed(id: number, note?: string): Promise<void> {
    // SET reads the row as it was, so the comparison is with the mark before this update.
    await this.#db.pool.query(
      `UPDATE event_log_processed
       SET processed_id = GREATEST(processed_id, $1),
           note = CASE WHEN $1 >= processed_id THEN COALESCE($2, note) ELSE note END`,
      [id, note ?? null],
    );
  }

  /** The newest committed entry (by any process) and the processed mark, in one round trip. */
  async position(): Promise<EventLogPosition> {
    const { rows } = await this.#db.pool.query<{
      last_id: string;
      received_at: string | null;
      processed_id: string;
    }>(
      `SELECT c.last_id, e.received_at, p.processed_id
       FROM event_log_counter c CROSS JOIN event_log_processed p LEFT JOIN event_log e ON e.id = c.last_id`,
    );
    const row = rows[0];
    const newest =
      row.received_at === null
        ? undefined
        : { id: Number(row.last_id), received_at: Number(row.received_at) };
    return { newest, processed: Number(row.processed_id) };
  }

  /** Wait for the appends already made; the pool stays open (its owner closes it). */
  async close(): Promise<void> {
    while (this.#flushing) await this.#flushing;
  }

  async #flush(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#takeBatch();
      try {
        const first = await this.#insert(batch);
        this.#lastId = Math.max(this.#lastId, first + batch.length - 1);
        batch.forEach((pending, i) => pending.resolve(first + i));
      } catch (err) {
        for (const pending of batch) pending.reject(err);
      }
    }
    this.#flushing = undefined;
  }

  /** The oldest waiting appends, bounded so one statement stays well under the protocol's 1 GB. */
  #takeBatch(): Pending[] {
    let chars = 0;
    let count = 0;
    while (count < this.#queue.length && count < MAX_BATCH_ENTRIES) {
      chars += this.#queue[count].body.length;
      if (count > 0 && chars > MAX_BATCH_CHARS) break;
      count++;
    }
    return this.#queue.splice(0, count);
  }

  /**
   * Insert the batch under the next ids; returns the first. One statement (its own transaction):
   * the counter's update and the inserts commit together in one round trip, where a transaction of
   * its own took four, each a wait for a database process the observer's thread does not outrank.
   */
  async #insert(batch: Pending[]): Promise<number> {
    // One parameter per value (not arrays), so 64 MB bodies are sent as they are, unescaped.
    const entries = batch.map(
      (_, i) => `($${3 * i + 2}::bigint, $${3 * i + 3}::text, $${3 * i + 4}::text, ${i + 1})`,
    );
    const params = [batch.length, ...batch.flatMap((p) => [p.receivedAt, p.path, p.body])];
    const { rows } = await this.#db.pool.query<{ id: string }>(
      `WITH counter AS (
         UPDATE event_log_counter SET last_id = last_id + $1 RETURNING last_id
       )
       INSERT INTO event_log (id, received_at, path, body)
       SELECT counter.last_id - $1 + entry.ord, entry.received_at, entry.path, entry.body
         FROM counter, (VALUES ${entries.join(', ')}) AS entry (received_at, path, body, ord)
       RETURNING id`,
      params,
    );
    return Math.min(...rows.map((row) => Number(row.id)));
  }
}
