import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { openPgOutbox, type PgOutbox } from '../../../adapters/store-postgres/pg-outbox.js';
import { AttemptRecorder } from '../../../core/use-cases/attempt-recorder.js';
import type { DeliveryQueue, DuePayload } from '../../../core/ports/delivery-queue.js';
import {
  T0,
  asDue,
  attemptAt,
  deliveryQueueContract,
  drain,
  outgoing,
} from '../../contracts/delivery-queue.contract.js';
import {
  TEST_DATABASE_URL,
  openDatabaseOfItsOwn,
  openTestDatabase,
  postgresAvailable,
} from '../../support/postgres.js';

type TestDatabase = Awaited<ReturnType<typeof openTestDatabase>>;

const none: ReadonlySet<string> = new Set();
const dueIds = async (queue: DeliveryQueue, busy = none) =>
  (await queue.due(Date.now(), 100, busy)).map((d) => d.payload.id);

if (!(await postgresAvailable())) {
  describe('PgOutbox', () => {
    it(`needs PostgreSQL at ${TEST_DATABASE_URL}, which does not answer (set STACKHOOKS_TEST_DATABASE_URL)`);
  });
} else {
  deliveryQueueContract('PgOutbox', async () => {
    const db = await openTestDatabase('outbox');
    return { queue: openPgOutbox(db), reopen: async () => openPgOutbox(db), cleanup: () => db.drop() };
  });

  describe('PgOutbox', () => {
    let db: TestDatabase;
    beforeEach(async () => {
      db = await openTestDatabase('outbox');
    });
    afterEach(async () => db.drop());

    it('tells listeners after an enqueue that added something, and not after one that added nothing', async () => {
      const outbox = openPgOutbox(db);
      let calls = 0;
      const stop = outbox.onEnqueued(() => calls++);
      const p = outgoing('h1');
      await outbox.enqueue([p]);
      await openPgOutbox(db).enqueue([outgoing('h1')]);
      await outbox.enqueue([p]);
      await outbox.enqueue([]);
      expect(calls).to.equal(1);
      stop();
      await outbox.enqueue([outgoing('h1')]);
      expect(calls).to.equal(1);
    });

    it('drops hooks while another instance reports a batch on them, without a deadlock', async () => {
      const worker = openPgOutbox(db);
      const api = openPgOutbox(db);
      for (let round = 0; round < 15; round++) {
        const hooks = ['h1', 'h2', 'h3', 'h4'].map((h) => `${h}_${round}`);
        const payloads = hooks.map((h) => outgoing(h));
        await worker.enqueue(payloads);
        const leased = await worker.due(Date.now(), 100, none);
        expect(leased).to.have.length(hooks.length);
        const reports = leased.map(({ payload }) => ({
          id: payload.id,
          attempt: attemptAt(Date.now(), 200),
          outcome: { state: 'delivered' as const },
        }));
        // Reverse order, so the drops meet the batch's locks from the other end.
        await Promise.all([
          worker.recordAttempts(reports),
          ...[...hooks].reverse().map((h) => api.dropHook(h)),
        ]);
        for (const h of hooks)
          expect(await api.list(h, { offset: 0, limit: 10 })).to.deep.equal({ total: 0, results: [] });
      }
    });

    it('remembers only the most recent blocks of each hook for rollbacks', async () => {
      const outbox = openPgOutbox(db, { sentBlocksPerHook: 3 });
      for (let i = 1; i <= 5; i++)
        await outbox.enqueue([outgoing('h1', { apply: [{ index: i, hash: `0x${i}`, tx_indexes: [i] }] })]);
      const sent = await outbox.sentApplies(['0x1', '0x2', '0x3', '0x4', '0x5']);
      expect([...sent.get('h1')!.keys()]).to.deep.equal(['0x3', '0x4', '0x5']);
    });

    it('does not remember again the blocks of a payload it already had when it is enqueued again', async () => {
      const outbox = openPgOutbox(db);
      const b1 = { index: 1, hash: '0xb1', tx_indexes: [0] };
      const sentToH1 = outgoing('h1', { apply: [b1] });
      await outbox.enqueue([sentToH1]);
      await outbox.enqueue([outgoing('h1', { rollback: [{ index: 1, hash: '0xb1' }], apply: [] })]);
      await outbox.enqueue([sentToH1, outgoing('h2', { apply: [b1] })]);
      expect([...(await outbox.sentApplies(['0xb1'])).keys()]).to.deep.equal(['h2']);
    });

    it('keeps the net effect of one enqueue that sends a block, rolls it back and sends it again', async () => {
      const outbox = openPgOutbox(db);
      const b1 = { index: 1, hash: '0xb1', tx_indexes: [0] };
      const back = { index: 1, hash: '0xb1' };
      await outbox.enqueue([
        outgoing('h1', { apply: [b1] }),
        outgoing('h1', { rollback: [back], apply: [] }),
        outgoing('h2', { apply: [b1] }),
        outgoing('h2', { rollback: [back], apply: [] }),
        outgoing('h2', { apply: [{ ...b1, tx_indexes: [2] }] }),
      ]);
      const sent = await outbox.sentApplies(['0xb1']);
      expect([...sent.keys()]).to.deep.equal(['h2']);
      expect(sent.get('h2')!.get('0xb1')).to.deep.equal([2]);
    });

    it('lets go of a body delivered longer ago than the grace period and then refuses to redeliver it', async () => {
      const outbox = openPgOutbox(db, { keepDeliveredBodiesMs: 60_000 });
      const [old, recent] = [outgoing('h1'), outgoing('h1')];
      await outbox.enqueue([old, recent]);
      await outbox.recordAttempt(old.id, attemptAt(Date.now() - 120_000, 200), { state: 'delivered' });
      await outbox.recordAttempt(recent.id, attemptAt(Date.now(), 200), { state: 'delivered' });
      expect(await outbox.prune(T0 - 1)).to.equal(0);
      const refusal = await outbox.redeliver('h1', old.id, T0).catch((err: unknown) => err);
      expect(refusal)
        .to.be.instanceOf(Error)
        .and.include({ name: 'BodyGoneError', code: 'DELIVERY_BODY_GONE' });
      expect(await outbox.get('h1', old.id)).to.include({ state: 'delivered' });
      expect(await outbox.redeliver('h1', recent.id, T0)).to.include({ state: 'pending' });
      expect((await outbox.due(T0, 10, none))[0].payload).to.deep.equal(asDue(recent));
    });

    it('reuses the space of the payloads it prunes while running: the outbox does not grow round after round', async function () {
      this.timeout(60_000);
      // A database of its own: another session's open snapshot in a shared one would keep VACUUM
      // from freeing the pruned rows (test files run in parallel).
      const own = await openDatabaseOfItsOwn('outboxvac');
      try {
        // This machine's PostgreSQL may run without autovacuum: the outbox's own vacuum must do.
        const outbox = openPgOutbox(own, { vacuumIntervalMs: 0 });
        const bytes = async () =>
          Number((await own.pool.query(`SELECT pg_relation_size('outbox_payloads') AS b`)).rows[0].b);
        const sizes: number[] = [];
        for (let round = 0; round < 8; round++) {
          await outbox.enqueue(Array.from({ length: 200 }, (_, i) => outgoing(`h${i % 20}`, { pad: 1500 })));
          expect(await drain(outbox)).to.have.length(200);
          expect(await outbox.prune(Number.MAX_SAFE_INTEGER)).to.equal(200);
          sizes.push(await bytes());
        }
        expect(sizes[7], `sizes by round: ${sizes.join(', ')}`).to.be.at.most(sizes[1]);
      } finally {
        await own.drop();
      }
    });

    it('leaves heads that a worker holds out of the next due time, for every instance', async () => {
      const [worker, other] = [openPgOutbox(db), openPgOutbox(db)];
      await worker.enqueue([outgoing('h1', { created_at: T0 }), outgoing('h2', { created_at: T0 + 50 })]);
      await worker.due(T0, 10, none);
      expect([await worker.nextDueAt(), await other.nextDueAt()]).to.deep.equal([T0 + 50, T0 + 50]);
      await worker.due(T0 + 50, 10, none);
      expect(await other.nextDueAt()).to.equal(undefined);
    });

    it('delivers every payload exactly once and in enqueue order per hook with two workers, never both on one hook', async function () {
      this.timeout(120_000);
      const workers = [openPgOutbox(db, { instanceId: 'a' }), openPgOutbox(db, { instanceId: 'b' })];
      const hooks = Array.from({ length: 50 }, (_, i) => `hook-${i}`);
      const rounds = Array.from({ length: 20 }, () => hooks.map((hook) => outgoing(hook, { pad: 100 })));
      const run: Run = { sent: new Map(), holding: new Set(), overlaps: [], by: new Map() };
      const total = hooks.length * rounds.length;
      // Enqueue while both workers drain, alternating the instance that enqueues.
      const enqueuing = (async () => {
        for (const [i, batch] of rounds.entries()) await workers[i % 2].enqueue(batch);
      })();
      await Promise.all([...workers.map((w) => work(w, run, total)), enqueuing]);
      expect(run.overlaps).to.deep.equal([]);
      expect([...run.by.keys()].sort()).to.deep.equal(['a', 'b']);
      for (const hook of hooks)
        expect(run.sent.get(hook)).to.deep.equal(
          rounds.map((batch) => batch.find((p) => p.hook_uuid === hook)!.id),
        );
      expect(await workers[0].nextDueAt()).to.equal(undefined);
    });

    it('lets another worker take over the hooks of a worker that stopped reporting once its lease ran out', async () => {
      // Only the first holder's lease is short, so a loaded machine cannot expire the taker's mid-test.
      const [dead, alive] = [openPgOutbox(db, { leaseMs: 300 }), openPgOutbox(db)];
      const [a1, a2, b1] = [outgoing('h1'), outgoing('h1'), outgoing('h2')];
      await dead.enqueue([a1, a2, b1]);
      expect(await dueIds(dead)).to.deep.equal([a1.id, b1.id]);
      expect(await dueIds(alive)).to.deep.equal([]);
      await sleep(350);
      expect(await dueIds(alive)).to.deep.equal([a1.id, b1.id]);
      expect(await dueIds(dead)).to.deep.equal([]);
      for (const p of [a1, b1])
        await alive.recordAttempt(p.id, attemptAt(Date.now(), 200), { state: 'delivered' });
      expect(await drain(alive)).to.deep.equal([a2.id]);
    });

    it('logs a late report from a worker whose lease was taken over, but lets the new holder decide', async () => {
      const [stale, holder] = [openPgOutbox(db, { leaseMs: 300 }), openPgOutbox(db)];
      const [a1, a2] = [outgoing('h1'), outgoing('h1')];
      await stale.enqueue([a1, a2]);
      await stale.due(Date.now(), 10, none);
      await sleep(350);
      expect(await dueIds(holder)).to.deep.equal([a1.id]);
      await stale.recordAttempt(a1.id, attemptAt(T0 + 1, 500), {
        state: 'pending',
        next_attempt_at: T0 + 9e12,
      });
      await stale.recordAttempt(a1.id, attemptAt(T0 + 2, 500), { state: 'failed', reason: 'gave up' });
      expect(await holder.get('h1', a1.id)).to.include({
        state: 'pending',
        next_attempt_at: T0,
        failure_reason: null,
      });
      await holder.recordAttempt(a1.id, attemptAt(T0 + 3, 500), {
        state: 'pending',
        next_attempt_at: T0 + 10,
      });
      const record = (await holder.get('h1', a1.id))!;
      expect(record).to.include({ state: 'pending', next_attempt_at: T0 + 10 });
      expect(record.attempts.map((a) => a.at)).to.deep.equal([T0 + 1, T0 + 2, T0 + 3]);
      expect(await drain(stale)).to.deep.equal([a1.id, a2.id]);
    });

    it('applies each report of a batch by its own lease: a taken-over hook’s is only logged, the others count', async () => {
      const [stale, holder, other] = [openPgOutbox(db, { leaseMs: 300 }), openPgOutbox(db), openPgOutbox(db)];
      const [a1, a2, b1, b2] = [outgoing('h1'), outgoing('h1'), outgoing('h2'), outgoing('h2')];
      await stale.enqueue([a1, a2, b1, b2]);
      expect(await dueIds(stale)).to.deep.equal([a1.id, b1.id]);
      await sleep(350);
      expect(await holder.due(Date.now(), 1, new Set(['h2']))).to.have.length(1);
      await stale.recordAttempts([
        { id: a1.id, attempt: attemptAt(T0 + 1, 500), outcome: { state: 'failed', reason: 'gave up' } },
        { id: b1.id, attempt: attemptAt(T0 + 1, 200), outcome: { state: 'delivered' } },
      ]);
      expect(await holder.get('h1', a1.id)).to.include({ state: 'pending', failure_reason: null });
      expect((await holder.get('h1', a1.id))?.attempts).to.have.length(1);
      expect(await holder.get('h2', b1.id)).to.include({ state: 'delivered' });
      expect(await dueIds(other)).to.deep.equal([b2.id]);
    });

    it('only logs a stale worker’s outcome even after the new holder reported and let the hook go', async () => {
      const [stale, holder] = [openPgOutbox(db, { leaseMs: 300 }), openPgOutbox(db)];
      const [a1, a2] = [outgoing('h1'), outgoing('h1')];
      await stale.enqueue([a1, a2]);
      await stale.due(Date.now(), 10, none);
      await sleep(350);
      expect(await dueIds(holder)).to.deep.equal([a1.id]);
      await holder.recordAttempts([
        {
          id: a1.id,
          attempt: attemptAt(T0 + 1, 500),
          outcome: { state: 'pending', next_attempt_at: T0 + 10 },
        },
      ]);
      await stale.recordAttempts([
        { id: a1.id, attempt: attemptAt(T0 + 2, 500), outcome: { state: 'failed', reason: 'gave up' } },
      ]);
      const record = (await holder.get('h1', a1.id))!;
      expect(record).to.include({ state: 'pending', next_attempt_at: T0 + 10, failure_reason: null });
      expect(record.attempts.map((a) => a.at)).to.deep.equal([T0 + 1, T0 + 2]);
    });

    it('settles a payload a stale worker delivered, yet keeps its hook with the new holder until that one reports', async () => {
      const [stale, holder, other] = [openPgOutbox(db, { leaseMs: 300 }), openPgOutbox(db), openPgOutbox(db)];
      const [a1, a2] = [outgoing('h1'), outgoing('h1')];
      await stale.enqueue([a1, a2]);
      await stale.due(Date.now(), 10, none);
      await sleep(350);
      expect(await dueIds(holder)).to.deep.equal([a1.id]);
      await stale.recordAttempt(a1.id, attemptAt(T0 + 1, 200), { state: 'delivered' });
      expect(await holder.get('h1', a1.id)).to.include({ state: 'delivered' });
      expect(await dueIds(other)).to.deep.equal([]);
      await holder.recordAttempt(a1.id, attemptAt(T0 + 2, 500), { state: 'pending', next_attempt_at: T0 });
      expect(await holder.get('h1', a1.id)).to.include({ state: 'delivered' });
      expect(await dueIds(other)).to.deep.equal([a2.id]);
    });

    it('keeps a hook with the worker whose attempt is in flight when its queue is failed and refilled meanwhile', async () => {
      const [sender, other] = [openPgOutbox(db), openPgOutbox(db)];
      const [a1, a2, a3] = [outgoing('h1'), outgoing('h1'), outgoing('h1')];
      await sender.enqueue([a1, a2]);
      expect(await dueIds(sender)).to.deep.equal([a1.id]);
      await other.failPending('h1', 'interrupted');
      await other.enqueue([a3]);
      expect(await dueIds(other)).to.deep.equal([]);
      await sender.recordAttempt(a1.id, attemptAt(T0, 500), { state: 'failed', reason: 'HTTP 500' });
      expect(await dueIds(other)).to.deep.equal([a3.id]);
      expect(await other.get('h1', a1.id)).to.include({ state: 'failed', failure_reason: 'interrupted' });
    });
  });
}

/** What the workers saw: per hook the ids in the order sent, hooks held now, overlaps, and sends per worker. */
type Run = { sent: Map<string, string[]>; holding: Set<string>; overlaps: string[]; by: Map<string, number> };

/**
 * A worker shaped like the dispatcher: up to 8 hooks in flight, each "sent" after a short wait and
 * recorded as delivered, with the reports that end together recorded in one batch. A hook counts
 * as held from `due` until its send is over; being handed a hook that the other worker still
 * holds is an overlap.
 */
async function work(queue: PgOutbox, run: Run, total: number): Promise<void> {
  const recorder = new AttemptRecorder(queue);
  const inFlight = new Map<string, Promise<void>>();
  const delivered = () => [...run.sent.values()].reduce((n, ids) => n + ids.length, 0);
  while (delivered() < total) {
    const free = 8 - inFlight.size;
    const due = free > 0 ? await queue.due(Date.now(), free, new Set(inFlight.keys())) : [];
    for (const { payload } of due)
      inFlight.set(payload.hook_uuid, send(queue.instanceId, recorder, payload, run, inFlight));
    if (due.length === 0) await Promise.race([sleep(2), ...inFlight.values()]);
  }
  await Promise.all(inFlight.values());
}

async function send(
  worker: string,
  recorder: AttemptRecorder,
  payload: DuePayload,
  run: Run,
  inFlight: Map<string, unknown>,
) {
  const hook = payload.hook_uuid;
  if (run.holding.has(hook)) run.overlaps.push(`${hook}: ${payload.id}`);
  run.holding.add(hook);
  await sleep(Math.random() * 3);
  run.sent.set(hook, [...(run.sent.get(hook) ?? []), payload.id]);
  run.holding.delete(hook);
  run.by.set(worker, (run.by.get(worker) ?? 0) + 1);
  await recorder.record({
    id: payload.id,
    attempt: attemptAt(Date.now(), 200),
    outcome: { state: 'delivered' },
  });
  inFlight.delete(hook);
}
