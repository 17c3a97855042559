import { randomUUID } from 'node:crypto';
import type { DeliveryAttempt, DeliveryRecord, DeliveryState } from '../../core/delivery/delivery-record.js';
import type {
  AttemptOutcome,
  AttemptReport,
  DeliveryPage,
  DeliveryQueue,
  DueDelivery,
  OutgoingPayload,
  PendingSummary,
} from '../../core/ports/delivery-queue.js';
import type { Database } from './database.js';
import { PgBodyGoneError } from './outbox-body-gone-error.js';
import { forgetUnreferencedTexts } from './outbox-block-texts.js';
import { OutboxVacuum } from './outbox-vacuum.js';
import { insertPayloads, lockEnqueues, refreshHead, takeSeqs } from './outbox-queue-writes.js';
import {
  RECORD_COLUMNS,
  attemptJson,
  payloadOfRow,
  recordOfRow,
  type PayloadRow,
  type RecordRow,
} from './outbox-rows.js';
import { SENT_BLOCKS_PER_HOOK, SentBlocks } from './outbox-sent-blocks.js';

/** Options of the Postgres outbox. */
export type PgOutboxOptions = {
  /** How long a worker may hold a hook before another takes it over, in ms (default 60 s); keep it above the delivery timeout. */
  leaseMs?: number;
  /** Names this instance's leases (default a random UUID); two live instances must never share one. */
  instanceId?: string;
  /** How long a delivered payload's body is kept for a redelivery, by the wall clock, in ms (default one hour). */
  keepDeliveredBodiesMs?: number;
  /** Blocks remembered per hook for rollbacks (default 10,000). */
  sentBlocksPerHook?: number;
  /** Least time between two vacuums of the outbox's tables after prunes, in ms (default one minute). */
  vacuumIntervalMs?: number;
};

const HOUR_MS = 60 * 60 * 1000;

// Delivery's own writes (leases, attempts) commit without waiting for the log's flush: a database
// crash can lose the last fraction of a second of them, which only sends those payloads again,
// and their hundreds of flushes a second no longer queue the observer's commits behind them.
// PostgreSQL keeps the log's order, so nothing committed after them survives without them.
const COMMIT_WITHOUT_FLUSH = "set_config('synchronous_commit', 'off', true)";

/** Named, so each connection plans them once: they run for every batch a worker sends. */
const LEASE_DUE = 'stackhooks_outbox_lease_due_async';
const RECORD_ATTEMPTS = 'stackhooks_outbox_record_attempts_async';
const NEXT_DUE_AT = 'stackhooks_outbox_next_due_at';
const PENDING_SUMMARY = 'stackhooks_outbox_pending_summary';

/**
 * The outbox in PostgreSQL, shared by any number of api and worker processes. Each hook has a row
 * in `outbox_queues` naming its head (oldest pending payload) and the lease of the worker sending
 * it: `due` leases heads with `FOR UPDATE SKIP LOCKED`, so workers never wait on each other, and
 * since the lease covers the whole hook, no two workers send payloads of one hook at once. A lease
 * runs on the database's clock, so workers' clocks need not agree; a worker that dies has its
 * hooks taken over once `leaseMs` has passed. Every change to a hook's pending set locks its queue
 * row first, and enqueues take one lock in turn, so sequence order is commit order and the head is
 * always the true oldest. Same semantics as the embedded outbox otherwise.
 */
export class PgOutbox implements DeliveryQueue {
  /** The name this instance's leases carry. */
  readonly instanceId: string;
  private readonly leaseMs: number;
  private readonly keepDeliveredBodiesMs: number;
  private readonly vacuum: OutboxVacuum;
  private readonly sent: SentBlocks;
  private readonly listeners = new Set<() => void>();
  /** Payloads leased here and not yet reported on: a report on one whose lease was lost is stale. */
  private readonly leased = new Set<string>();

  constructor(
    private readonly db: Database,
    options: PgOutboxOptions = {},
  ) {
    this.instanceId = options.instanceId ?? randomUUID();
    this.leaseMs = options.leaseMs ?? 60_000;
    this.keepDeliveredBodiesMs = options.keepDeliveredBodiesMs ?? HOUR_MS;
    this.sent = new SentBlocks(options.sentBlocksPerHook ?? SENT_BLOCKS_PER_HOOK);
    this.vacuum = new OutboxVacuum(db, options.vacuumIntervalMs);
  }

  /** Queue payloads in order, in one transaction (known ids skipped); listeners hear of it after the commit. */
  async enqueue(payloads: OutgoingPayload[]): Promise<void> {
    if (payloads.length === 0) return;
    const added = await this.db.transaction((client) => insertPayloads(client, payloads, this.sent));
    if (added > 0) this.notify();
  }

  /** Hooks and transactions sent in live applies of these blocks. */
  async sentApplies(blockHashes: readonly string[]): Promise<Map<string, Map<string, number[]>>> {
    return this.sent.lookup(this.db.pool, blockHashes);
  }

  /** Forget a hook's queue, log and sent blocks. */
  async dropHook(hookUuid: string): Promise<void> {
    await this.db.transaction(async (client) => {
      // In turn with enqueues, so none can leave payloads behind without a queue row.
      await lockEnqueues(client);
      // Queue row before payload rows, the order batch reports lock them in: no deadlock between the two.
      await client.query('SELECT 1 FROM outbox_queues WHERE hook_uuid = $1 FOR UPDATE', [hookUuid]);
      await client.query('DELETE FROM outbox_payloads WHERE hook_uuid = $1', [hookUuid]);
      await client.query('DELETE FROM outbox_queues WHERE hook_uuid = $1', [hookUuid]);
      await this.sent.dropHook(client, hookUuid);
    });
  }

  /** Lease and return the head of each hook that is due, not in `busy`, and not leased by another instance; earliest first, in one round trip. */
  async due(now: number, limit: number, busy: ReadonlySet<string>): Promise<DueDelivery[]> {
    if (limit <= 0) return [];
    const { rows } = await this.db.pool.query<PayloadRow>({
      name: LEASE_DUE,
      text: `SELECT due.* FROM outbox_lease_due($1, $2, $3, $4, $5) due, ${COMMIT_WITHOUT_FLUSH}`,
      values: [this.instanceId, now, [...busy], this.leaseMs, limit],
    });
    for (const row of rows) this.leased.add(row.id);
    return rows.map((row) => ({ payload: payloadOfRow(row), attempts: row.attempt_count }));
  }

  /**
   * The earliest next attempt of any hook's head that no worker holds. A held head is in flight:
   * its report (or its lease running out) frees it, and delivery loops poll at least every second;
   * counting it would make every worker's loop query in a tight circle while any attempt runs.
   */
  async nextDueAt(): Promise<number | undefined> {
    const { rows } = await this.db.pool.query<{ at: string | null }>({
      name: NEXT_DUE_AT,
      text: `SELECT min(next_attempt_at) AS at FROM outbox_queues
             WHERE head_id IS NOT NULL AND (lease_until IS NULL OR lease_until <= now())`,
    });
    return rows[0].at === null ? undefined : Number(rows[0].at);
  }

  /** Log an attempt and apply its outcome; see `recordAttempts`. */
  async recordAttempt(id: string, attempt: DeliveryAttempt | null, outcome: AttemptOutcome): Promise<void> {
    await this.recordAttempts([{ id, attempt, outcome }]);
  }

  /**
   * Log attempts, apply their outcomes and release the leases they end (an unknown id is ignored:
   * its hook is gone), one round trip per run of distinct payloads (`outbox_record_attempts`,
   * migration 006). As in the embedded outbox, a delivery always counts and other outcomes only
   * move a pending payload; an outcome reported after this instance's lease was taken over is only
   * logged (the new holder decides), unless it is a delivery: the target did receive it. A report
   * without an attempt puts its payload back unsent, with the reason it is held (migration 008).
   */
  async recordAttempts(reports: readonly AttemptReport[]): Promise<void> {
    for (const run of distinctRuns(reports)) {
      await this.db.pool.query({
        name: RECORD_ATTEMPTS,
        text: `SELECT outbox_record_attempts($1, $2::jsonb[], $3, $4, $5, $6, $7, $8, $9), ${COMMIT_WITHOUT_FLUSH}`,
        values: [
          run.map((r) => r.id),
          run.map((r) => attemptJson(r.attempt)),
          run.map((r) => r.attempt?.at ?? null),
          run.map((r) => r.outcome.state),
          run.map((r) => (r.outcome.state === 'pending' ? r.outcome.next_attempt_at : null)),
          run.map((r) => (r.outcome.state === 'failed' ? r.outcome.reason : null)),
          this.instanceId,
          run.map((r) => this.leased.delete(r.id)),
          run.map((r) => (r.outcome.state === 'pending' ? (r.outcome.held_reason ?? null) : null)),
        ],
      });
    }
  }

  /** Fail every pending payload of a hook but the one in flight. */
  async failPending(hookUuid: string, reason: string, inFlight?: string): Promise<void> {
    await this.db.transaction(async (client) => {
      const locked = await client.query('SELECT 1 FROM outbox_queues WHERE hook_uuid = $1 FOR UPDATE', [
        hookUuid,
      ]);
      if (locked.rows.length === 0) return;
      await client.query(
        `UPDATE outbox_payloads SET state = 'failed', failure_reason = $2, next_attempt_at = NULL, held_reason = NULL
         WHERE hook_uuid = $1 AND state = 'pending' AND ($3::text IS NULL OR id <> $3)`,
        [hookUuid, reason, inFlight ?? null],
      );
      // An attempt in flight keeps its lease: the hook stays with that worker until it reports.
      await refreshHead(client, hookUuid, false);
    });
  }

  /** A page of a hook's log, newest first. */
  async list(
    hookUuid: string,
    options: { state?: DeliveryState; offset: number; limit: number },
  ): Promise<DeliveryPage> {
    const where = 'WHERE hook_uuid = $1 AND ($2::text IS NULL OR state = $2::text)';
    const state = options.state ?? null;
    const [count, page] = await Promise.all([
      this.db.pool.query<{ total: number }>(
        `SELECT count(*)::integer AS total FROM outbox_payloads ${where}`,
        [hookUuid, state],
      ),
      this.db.pool.query<RecordRow>(
        `SELECT ${RECORD_COLUMNS} FROM outbox_payloads ${where}
         ORDER BY created_at DESC, seq DESC OFFSET $3 LIMIT $4`,
        [hookUuid, state, options.offset, options.limit],
      ),
    ]);
    return { total: count.rows[0].total, results: page.rows.map(recordOfRow) };
  }

  /** One record of a hook's log. */
  async get(hookUuid: string, id: string): Promise<DeliveryRecord | undefined> {
    const { rows } = await this.db.pool.query<RecordRow>(
      `SELECT ${RECORD_COLUMNS} FROM outbox_payloads WHERE id = $1 AND hook_uuid = $2`,
      [id, hookUuid],
    );
    return rows[0] && recordOfRow(rows[0]);
  }

  /**
   * Queue a logged payload again at the back of its hook's queue (a pending one stays where it is,
   * its hook's queue due now); rejects with PgBodyGoneError when its body is gone.
   */
  async redeliver(hookUuid: string, id: string, now: number): Promise<DeliveryRecord | undefined> {
    return this.db.transaction(async (client) => {
      // A new place in the queue is a sequence value, so it is taken in turn with enqueues.
      await lockEnqueues(client);
      await client.query('SELECT 1 FROM outbox_queues WHERE hook_uuid = $1 FOR UPDATE', [hookUuid]);
      const { rows } = await client.query<RecordRow & { gone: boolean }>(
        `SELECT ${RECORD_COLUMNS}, body IS NULL AS gone FROM outbox_payloads WHERE id = $1 AND hook_uuid = $2`,
        [id, hookUuid],
      );
      const found = rows[0];
      if (!found) return undefined;
      if (found.state === 'pending') {
        // It stays where it is; the hook's queue is due now instead of at its head's next retry.
        const hastened = await client.query(
          `UPDATE outbox_payloads SET next_attempt_at = $2, held_reason = NULL
           WHERE id = (SELECT head_id FROM outbox_queues WHERE hook_uuid = $1) AND state = 'pending'
             AND next_attempt_at > $2`,
          [hookUuid, now],
        );
        if (!hastened.rowCount) return recordOfRow(found);
        await refreshHead(client, hookUuid, false);
        const again = await client.query<RecordRow>(
          `SELECT ${RECORD_COLUMNS} FROM outbox_payloads WHERE id = $1`,
          [id],
        );
        return recordOfRow(again.rows[0]);
      }
      if (found.gone) throw new PgBodyGoneError(id);
      const [seq] = await takeSeqs(client, 1);
      const updated = await client.query<RecordRow>(
        `UPDATE outbox_payloads SET state = 'pending', next_attempt_at = $2, failure_reason = NULL, held_reason = NULL,
           delivered_at = NULL, queue_seq = $3
         WHERE id = $1 RETURNING ${RECORD_COLUMNS}`,
        [id, now, seq],
      );
      await refreshHead(client, hookUuid, false);
      return recordOfRow(updated.rows[0]);
    });
  }

  /** Payloads pending, and when the oldest hook head was created (heads are one row a hook). */
  async pendingSummary(): Promise<PendingSummary> {
    const { rows } = await this.db.pool.query<{ pending: string; oldest: string | null }>({
      name: PENDING_SUMMARY,
      text: `SELECT (SELECT count(*) FROM outbox_payloads WHERE state = 'pending') AS pending,
                    (SELECT min(p.created_at) FROM outbox_queues q JOIN outbox_payloads p ON p.id = q.head_id
                      WHERE q.head_id IS NOT NULL) AS oldest`,
    });
    const { pending, oldest } = rows[0];
    return { pending: Number(pending), oldestHeadCreatedAt: oldest === null ? undefined : Number(oldest) };
  }

  /**
   * Forget settled payloads created before `before`, then let go of bodies delivered longer than the
   * grace period ago, and of the block texts no payload refers to any more; then vacuum, so their
   * space is used again (at most once a minute).
   */
  async prune(before: number): Promise<number> {
    const forgotten = await this.db.pool.query(
      `DELETE FROM outbox_payloads WHERE state <> 'pending' AND created_at < $1`,
      [before],
    );
    // The wall clock, not the callers': processes share this log, each with its own notion of now.
    await this.db.pool.query(
      `UPDATE outbox_payloads SET body = NULL, body_parts = NULL, body_blocks = NULL, block_batch = NULL
       WHERE state = 'delivered' AND body IS NOT NULL AND delivered_at < $1`,
      [Date.now() - this.keepDeliveredBodiesMs],
    );
    await forgetUnreferencedTexts(this.db.pool);
    await this.vacuum.afterPrune();
    return forgotten.rowCount ?? 0;
  }

  /** Call `listener` after each enqueue by this instance that added something; returns a function that stops it. */
  onEnqueued(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(): void {
    for (const listener of this.listeners) {
      // The payloads are committed by now: a listener's error must not turn into a failed enqueue.
      try {
        listener();
      } catch (err) {
        process.emitWarning(err instanceof Error ? err : new Error(String(err)));
      }
    }
  }
}

// Consecutive runs in which no payload repeats: one statement settles each payload at most once.
function distinctRuns(reports: readonly AttemptReport[]): AttemptReport[][] {
  const runs: AttemptReport[][] = [];
  let ids = new Set<string>();
  for (const report of reports) {
    if (runs.length === 0 || ids.has(report.id)) {
      runs.push([]);
      ids = new Set();
    }
    runs.at(-1)!.push(report);
    ids.add(report.id);
  }
  return runs;
}

/** Open the outbox on a migrated database (migrations 005, 006, 008 and 017). */
export function openPgOutbox(db: Database, options?: PgOutboxOptions): PgOutbox {
  return new PgOutbox(db, options);
}
