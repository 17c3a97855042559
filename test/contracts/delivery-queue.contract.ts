import { expect } from 'chai';
import type { DeliveryAttempt } from '../../core/delivery/delivery-record.js';
import type { DeliveryQueue, OutgoingPayload } from '../../core/ports/delivery-queue.js';

/** An outbox under test; `reopen` (when it persists) closes it and opens the same data again. */
export type DeliveryQueueSubject = {
  queue: DeliveryQueue;
  reopen?: () => Promise<DeliveryQueue>;
  cleanup(): Promise<void>;
};

/** A fixed start time, so due times read as offsets from it. */
export const T0 = 1_700_000_000_000;
let sequence = 0;

/** An outgoing payload for `hook`; `pad` grows the body by that many characters. */
export function outgoing(
  hook: string,
  options: Partial<Pick<OutgoingPayload, 'id' | 'kind' | 'apply' | 'rollback' | 'created_at'>> & {
    pad?: number;
  } = {},
): OutgoingPayload {
  const id = options.id ?? `msg_${hook}_${++sequence}`;
  return {
    id,
    hook_uuid: hook,
    owner: 'owner-1',
    url: `https://example.com/${hook}`,
    kind: options.kind ?? 'live',
    apply: options.apply ?? [],
    rollback: options.rollback ?? [],
    body: {
      chainhook: { uuid: hook, name: `${id}${'x'.repeat(options.pad ?? 0)}` },
      event: { chain: 'stacks', network: 'mainnet', apply: [], rollback: [] },
    },
    created_at: options.created_at ?? T0,
  };
}

/**
 * One payload per hook whose bodies share the same `blocks` block objects in `apply` (as shaped
 * payloads of one chain event do), each with its own hook in the body.
 */
export function sharingBlocks(hooks: readonly string[], blocks: number): OutgoingPayload[] {
  const shared = Array.from({ length: blocks }, (_, i) => ({
    block_identifier: { index: 100 + i, hash: `0x${100 + i}` },
    parent_block_identifier: { index: 99 + i, hash: `0x${99 + i}` },
    timestamp: 1_700_000_000 + i,
    transactions: [],
    metadata: { note: `block ${i} "quoted" ✓ ${'y'.repeat(200)}` } as never,
  }));
  return hooks.map((hook) => {
    const p = outgoing(hook, { apply: shared.map((b) => ({ ...b.block_identifier, tx_indexes: [0] })) });
    return { ...p, body: { ...p.body, event: { ...p.body.event, apply: shared } } };
  });
}

/** An attempt at `at` that the target answered with `status`. */
export function attemptAt(at: number, status = 500): DeliveryAttempt {
  return { at, status_code: status, error: status >= 300 ? `HTTP ${status}` : null, latency_ms: 12 };
}

const none: ReadonlySet<string> = new Set();
const ids = (payloads: { id: string }[]) => payloads.map((p) => p.id);
const dueIds = async (queue: DeliveryQueue, now: number, limit = 100, busy = none) =>
  (await queue.due(now, limit, busy)).map((d) => d.payload.id);

/** Deliver everything due until nothing is left; returns the ids in the order they went out. */
export async function drain(queue: DeliveryQueue, now = T0 + 1e12): Promise<string[]> {
  const sent: string[] = [];
  for (let due = await queue.due(now, 1000, none); due.length > 0; due = await queue.due(now, 1000, none)) {
    for (const { payload } of due) {
      await queue.recordAttempt(payload.id, attemptAt(now, 200), { state: 'delivered' });
      sent.push(payload.id);
    }
  }
  return sent;
}

/** The behaviour every DeliveryQueue must show; run it against each adapter with a fresh, empty outbox. */
export function deliveryQueueContract(
  name: string,
  open: () => Promise<DeliveryQueueSubject>,
  options: { persistent?: boolean } = { persistent: true },
): void {
  describe(`DeliveryQueue contract: ${name}`, () => {
    let subject: DeliveryQueueSubject;
    let queue: DeliveryQueue;
    beforeEach(async () => {
      subject = await open();
      queue = subject.queue;
    });
    afterEach(async () => subject.cleanup());

    it('logs a new payload as pending, due at its creation, with no attempts', async () => {
      const p = outgoing('h1', {
        created_at: T0 + 5,
        apply: [{ index: 7, hash: '0x07', tx_indexes: [0, 2] }],
      });
      await queue.enqueue([p]);
      expect(await queue.get('h1', p.id)).to.deep.equal({
        id: p.id,
        hook_uuid: 'h1',
        kind: 'live',
        state: 'pending',
        apply: p.apply,
        rollback: [],
        created_at: T0 + 5,
        next_attempt_at: T0 + 5,
        failure_reason: null,
        held_reason: null,
        attempts: [],
      });
      const [due] = await queue.due(T0 + 5, 10, none);
      expect(due).to.deep.equal({ payload: p, attempts: 0 });
    });

    it('gives back bodies with quotes, backslashes, control characters and non-ASCII text as queued, from a batch', async () => {
      const awkward = 'a "quoted" \\ back\\slash, tab\t, newline\n, \u0001, ünïcødé ✓, emoji 🚀, </script>';
      const block = {
        block_identifier: { index: 7, hash: '0x07' },
        parent_block_identifier: { index: 6, hash: '0x06' },
        timestamp: 1,
        transactions: [],
        metadata: { note: awkward } as never,
      };
      const payloads = ['h1', 'h2', 'h3'].map((hook) => {
        const p = outgoing(hook, { created_at: T0 });
        return { ...p, body: { ...p.body, event: { ...p.body.event, apply: [block] } } };
      });
      payloads[1].body.chainhook.name = awkward;
      await queue.enqueue(payloads);
      const due = await queue.due(T0, 10, none);
      const byId = new Map(due.map((d) => [d.payload.id, d.payload]));
      for (const p of payloads) expect(byId.get(p.id)).to.deep.equal(p);
    });

    it('skips a payload whose id is already queued, within one call and across calls', async () => {
      const p = outgoing('h1');
      await queue.enqueue([p, { ...p, created_at: T0 + 1 }]);
      await queue.enqueue([{ ...p, created_at: T0 + 2 }]);
      const page = await queue.list('h1', { offset: 0, limit: 10 });
      expect(page.total).to.equal(1);
      expect(page.results[0].created_at).to.equal(T0);
    });

    it('makes only the oldest pending payload of a hook due', async () => {
      const [a, b, c] = [outgoing('h1'), outgoing('h1'), outgoing('h1')];
      await queue.enqueue([a, b, c]);
      expect(await dueIds(queue, T0 + 1000)).to.deep.equal([a.id]);
    });

    it('keeps a retried payload at the head of its hook until it is settled', async () => {
      const [a, b] = [outgoing('h1'), outgoing('h1')];
      await queue.enqueue([a, b]);
      await queue.recordAttempt(a.id, attemptAt(T0), { state: 'pending', next_attempt_at: T0 + 1000 });
      expect(await dueIds(queue, T0 + 999)).to.deep.equal([]);
      expect(await queue.nextDueAt()).to.equal(T0 + 1000);
      expect(await queue.due(T0 + 1000, 10, none)).to.deep.equal([{ payload: a, attempts: 1 }]);
      await queue.recordAttempt(a.id, attemptAt(T0 + 1000, 200), { state: 'delivered' });
      expect(await dueIds(queue, T0 + 1000)).to.deep.equal([b.id]);
    });

    it('puts a taken head back unsent: due later, with the reason it is held, and no attempt logged', async () => {
      const [a, b] = [outgoing('h1'), outgoing('h1')];
      await queue.enqueue([a, b]);
      expect(await dueIds(queue, T0)).to.deep.equal([a.id]);
      const held = {
        state: 'pending' as const,
        next_attempt_at: T0 + 700,
        held_reason: 'the circuit is open',
      };
      await queue.recordAttempts([{ id: a.id, attempt: null, outcome: held }]);
      expect(await dueIds(queue, T0 + 699)).to.deep.equal([]);
      expect(await queue.nextDueAt()).to.equal(T0 + 700);
      expect(await queue.get('h1', a.id)).to.include({
        state: 'pending',
        next_attempt_at: T0 + 700,
        held_reason: 'the circuit is open',
      });
      expect((await queue.get('h1', a.id))?.attempts).to.deep.equal([]);
      expect(await queue.due(T0 + 700, 10, none)).to.deep.equal([{ payload: a, attempts: 0 }]);
      // The next attempt clears the reason; the lane it ran in is logged with it.
      const attempt = { ...attemptAt(T0 + 700, 200), lane: 'slow' as const };
      await queue.recordAttempt(a.id, attempt, { state: 'delivered' });
      expect(await queue.get('h1', a.id)).to.deep.include({
        state: 'delivered',
        held_reason: null,
        attempts: [attempt],
      });
      expect(await dueIds(queue, T0 + 700)).to.deep.equal([b.id]);
    });

    it('moves on to the next payload when the head fails, and logs the reason', async () => {
      const [a, b] = [outgoing('h1'), outgoing('h1')];
      await queue.enqueue([a, b]);
      await queue.recordAttempt(a.id, attemptAt(T0, 410), { state: 'failed', reason: 'HTTP 410 Gone' });
      expect(await dueIds(queue, T0)).to.deep.equal([b.id]);
      const record = await queue.get('h1', a.id);
      expect(record).to.include({ state: 'failed', failure_reason: 'HTTP 410 Gone', next_attempt_at: null });
      expect(record?.attempts).to.deep.equal([attemptAt(T0, 410)]);
    });

    it('records a batch of attempts on several hooks in one call: a delivery, a retry and a failure', async () => {
      const [a1, a2, b1, b2, c1, c2] = ['h1', 'h1', 'h2', 'h2', 'h3', 'h3'].map((hook) => outgoing(hook));
      await queue.enqueue([a1, a2, b1, b2, c1, c2]);
      expect(await dueIds(queue, T0)).to.deep.equal([a1.id, b1.id, c1.id]);
      await queue.recordAttempts([
        { id: a1.id, attempt: attemptAt(T0, 200), outcome: { state: 'delivered' } },
        { id: b1.id, attempt: attemptAt(T0), outcome: { state: 'pending', next_attempt_at: T0 + 500 } },
        { id: c1.id, attempt: attemptAt(T0, 410), outcome: { state: 'failed', reason: 'HTTP 410 Gone' } },
      ]);
      expect(await dueIds(queue, T0)).to.deep.equal([a2.id, c2.id]);
      expect(await dueIds(queue, T0 + 500)).to.deep.equal([a2.id, c2.id, b1.id]);
      expect(await queue.get('h1', a1.id)).to.include({ state: 'delivered', next_attempt_at: null });
      expect(await queue.get('h2', b1.id)).to.include({ state: 'pending', next_attempt_at: T0 + 500 });
      const failed = await queue.get('h3', c1.id);
      expect(failed).to.include({ state: 'failed', failure_reason: 'HTTP 410 Gone' });
      expect(failed?.attempts).to.deep.equal([attemptAt(T0, 410)]);
    });

    it('applies a batch in order when it names one payload twice or two of one hook, ignoring unknown ids', async () => {
      const [a1, a2, a3] = [outgoing('h1'), outgoing('h1'), outgoing('h1')];
      await queue.enqueue([a1, a2, a3]);
      await queue.recordAttempts([
        { id: a1.id, attempt: attemptAt(T0), outcome: { state: 'pending', next_attempt_at: T0 + 10 } },
        { id: 'no-such-payload', attempt: attemptAt(T0, 200), outcome: { state: 'delivered' } },
        { id: a1.id, attempt: attemptAt(T0 + 10, 200), outcome: { state: 'delivered' } },
        { id: a2.id, attempt: attemptAt(T0 + 11, 200), outcome: { state: 'delivered' } },
      ]);
      expect((await queue.get('h1', a1.id))?.attempts.map((a) => a.at)).to.deep.equal([T0, T0 + 10]);
      expect(await queue.get('h1', a2.id)).to.include({ state: 'delivered' });
      expect(await dueIds(queue, T0)).to.deep.equal([a3.id]);
      await queue.recordAttempts([]);
      expect(await dueIds(queue, T0)).to.deep.equal([a3.id]);
    });

    it('returns heads earliest due first across hooks, at most `limit`, skipping busy hooks', async () => {
      await queue.enqueue([
        outgoing('h3', { id: 'c', created_at: T0 + 30 }),
        outgoing('h1', { id: 'a', created_at: T0 + 10 }),
        outgoing('h2', { id: 'b', created_at: T0 + 20 }),
        outgoing('h4', { id: 'd', created_at: T0 + 40 }),
      ]);
      expect(await dueIds(queue, T0 + 100, 2)).to.deep.equal(['a', 'b']);
      expect(await dueIds(queue, T0 + 100, 10, new Set(['h2', 'h3']))).to.deep.equal(['a', 'd']);
      expect(await dueIds(queue, T0 + 25)).to.deep.equal(['a', 'b']);
    });

    it('breaks a tie in due time by enqueue order', async () => {
      const hooks = ['h5', 'h3', 'h1', 'h4', 'h2', 'h7', 'h6'];
      await queue.enqueue(hooks.map((hook) => outgoing(hook, { id: `first-${hook}` })));
      expect(await dueIds(queue, T0)).to.deep.equal(hooks.map((hook) => `first-${hook}`));
    });

    it('reports the earliest due time, and none once nothing is pending', async () => {
      expect(await queue.nextDueAt()).to.equal(undefined);
      await queue.enqueue([outgoing('h1', { id: 'late', created_at: T0 + 50 }), outgoing('h2', { id: 'x' })]);
      expect(await queue.nextDueAt()).to.equal(T0);
      await drain(queue);
      expect(await queue.nextDueAt()).to.equal(undefined);
    });

    it('sums the pending payloads and dates the oldest head, and reports none once all are settled', async () => {
      expect(await queue.pendingSummary()).to.deep.equal({ pending: 0, oldestHeadCreatedAt: undefined });
      await queue.enqueue([
        outgoing('h1', { id: 'a', created_at: T0 + 10 }),
        outgoing('h1', { id: 'b', created_at: T0 + 5 }),
        outgoing('h2', { id: 'c', created_at: T0 + 20 }),
      ]);
      // h1's head is `a` (queue order), so `b`, created earlier but waiting behind it, is not the oldest head.
      expect(await queue.pendingSummary()).to.deep.equal({ pending: 3, oldestHeadCreatedAt: T0 + 10 });
      await queue.recordAttempt('a', attemptAt(T0 + 30, 200), { state: 'delivered' });
      expect(await queue.pendingSummary()).to.deep.equal({ pending: 2, oldestHeadCreatedAt: T0 + 5 });
      await drain(queue);
      expect(await queue.pendingSummary()).to.deep.equal({ pending: 0, oldestHeadCreatedAt: undefined });
    });

    it('tells which hooks were sent which transactions of a block in a live apply', async () => {
      await queue.enqueue([
        outgoing('h1', { apply: [{ index: 1, hash: '0xb1', tx_indexes: [0, 3] }] }),
        outgoing('h2', { apply: [{ index: 1, hash: '0xb1', tx_indexes: [1] }] }),
        outgoing('h3', { kind: 'evaluation', apply: [{ index: 1, hash: '0xb1', tx_indexes: [2] }] }),
        outgoing('h1', { apply: [{ index: 2, hash: '0xb2', tx_indexes: [5] }] }),
      ]);
      const sent = await queue.sentApplies(['0xb1', '0xb2', '0xunknown']);
      expect([...sent.keys()].sort()).to.deep.equal(['h1', 'h2']);
      expect(Object.fromEntries(sent.get('h1')!)).to.deep.equal({ '0xb1': [0, 3], '0xb2': [5] });
      expect(Object.fromEntries(sent.get('h2')!)).to.deep.equal({ '0xb1': [1] });
    });

    it('forgets a block that a later live payload of the hook rolled back', async () => {
      const b1 = { index: 1, hash: '0xb1', tx_indexes: [0] };
      await queue.enqueue([outgoing('h1', { apply: [b1] }), outgoing('h2', { apply: [b1] })]);
      await queue.enqueue([outgoing('h1', { rollback: [{ index: 1, hash: '0xb1' }], apply: [] })]);
      const sent = await queue.sentApplies(['0xb1']);
      expect([...sent.keys()]).to.deep.equal(['h2']);
    });

    it('fails every pending payload of a hook without adding attempts, leaving other hooks alone', async () => {
      const [a, b, other] = [outgoing('h1'), outgoing('h1'), outgoing('h2')];
      await queue.enqueue([a, b, other]);
      await queue.failPending('h1', 'interrupted');
      for (const id of [a.id, b.id])
        expect(await queue.get('h1', id)).to.include({ state: 'failed', failure_reason: 'interrupted' });
      expect((await queue.get('h1', a.id))?.attempts).to.deep.equal([]);
      expect(await dueIds(queue, T0)).to.deep.equal([other.id]);
    });

    it('spares the payload in flight when failing a hook, so a redeliver after its own failure stands', async () => {
      const [a, b] = [outgoing('h1'), outgoing('h1')];
      await queue.enqueue([a, b]);
      expect(await dueIds(queue, T0)).to.deep.equal([a.id]);
      await queue.failPending('h1', 'interrupted', a.id);
      expect(await queue.get('h1', b.id)).to.include({ state: 'failed', failure_reason: 'interrupted' });
      expect(await queue.get('h1', a.id)).to.include({ state: 'pending' });
      await queue.recordAttempt(a.id, attemptAt(T0, 410), { state: 'failed', reason: 'gone' });
      expect(await queue.get('h1', a.id)).to.include({ state: 'failed', failure_reason: 'gone' });
      await queue.redeliver('h1', a.id, T0 + 1);
      if (subject.reopen) queue = await subject.reopen();
      expect(await queue.get('h1', b.id)).to.include({ state: 'failed' });
      expect(await drain(queue)).to.deep.equal([a.id]);
    });

    it('forgets a dropped hook entirely: queue, log and sent blocks', async () => {
      const b1 = { index: 1, hash: '0xb1', tx_indexes: [0] };
      const [a, other] = [outgoing('h1', { apply: [b1] }), outgoing('h2', { apply: [b1] })];
      await queue.enqueue([a, other]);
      await queue.dropHook('h1');
      expect(await queue.get('h1', a.id)).to.equal(undefined);
      expect(await queue.list('h1', { offset: 0, limit: 10 })).to.deep.equal({ total: 0, results: [] });
      expect(await dueIds(queue, T0)).to.deep.equal([other.id]);
      expect([...(await queue.sentApplies(['0xb1'])).keys()]).to.deep.equal(['h2']);
      // An attempt that was in flight when the hook went is dropped too.
      await queue.recordAttempt(a.id, attemptAt(T0, 200), { state: 'delivered' });
      expect(await queue.get('h1', a.id)).to.equal(undefined);
    });

    it('lists a hook newest first by creation then enqueue order, filtered by state, in pages', async () => {
      const [a, b, c, d] = [
        outgoing('h1', { id: 'a', created_at: T0 + 10 }),
        outgoing('h1', { id: 'b', created_at: T0 + 30 }),
        outgoing('h1', { id: 'c', created_at: T0 + 10 }),
        outgoing('h1', { id: 'd', created_at: T0 + 20 }),
      ];
      await queue.enqueue([a, b, c, d, outgoing('h2')]);
      await queue.recordAttempt('a', attemptAt(T0 + 40, 200), { state: 'delivered' });
      const first = await queue.list('h1', { offset: 0, limit: 3 });
      const rest = await queue.list('h1', { offset: 3, limit: 3 });
      expect([first.total, rest.total]).to.deep.equal([4, 4]);
      expect(ids([...first.results, ...rest.results])).to.deep.equal(['b', 'd', 'c', 'a']);
      const pending = await queue.list('h1', { state: 'pending', offset: 1, limit: 1 });
      expect(pending.total).to.equal(3);
      expect(ids(pending.results)).to.deep.equal(['d']);
      expect(
        ids((await queue.list('h1', { state: 'delivered', offset: 0, limit: 5 })).results),
      ).to.deep.equal(['a']);
      expect(await queue.get('h2', 'a')).to.equal(undefined);
    });

    it('redelivers a settled payload behind the hook’s pending ones, keeping its id and attempts', async () => {
      const [a, b] = [outgoing('h1'), outgoing('h1')];
      await queue.enqueue([a, b]);
      await queue.recordAttempt(a.id, attemptAt(T0, 500), { state: 'failed', reason: 'gave up' });
      const record = await queue.redeliver('h1', a.id, T0 + 100);
      expect(record).to.include({
        id: a.id,
        state: 'pending',
        next_attempt_at: T0 + 100,
        failure_reason: null,
      });
      expect(record?.attempts).to.have.length(1);
      expect(await drain(queue)).to.deep.equal([b.id, a.id]);
      await queue.redeliver('h1', b.id, T0 + 200);
      expect(await queue.due(T0 + 200, 10, none)).to.deep.equal([{ payload: b, attempts: 1 }]);
    });

    it('leaves a payload that is still pending where it is when asked to redeliver it', async () => {
      const [a, b] = [outgoing('h1'), outgoing('h1')];
      await queue.enqueue([a, b]);
      expect(await queue.redeliver('h1', a.id, T0 + 100)).to.include({
        state: 'pending',
        next_attempt_at: T0,
      });
      expect(await drain(queue)).to.deep.equal([a.id, b.id]);
      expect(await queue.redeliver('h2', a.id, T0)).to.equal(undefined);
      expect(await queue.redeliver('h1', 'msg_unknown', T0)).to.equal(undefined);
    });

    it('makes a pending payload waiting for its retry due at once when asked to redeliver it', async () => {
      const [a, b] = [outgoing('h1'), outgoing('h1')];
      await queue.enqueue([a, b]);
      await queue.recordAttempt(a.id, attemptAt(T0, 500), {
        state: 'pending',
        next_attempt_at: T0 + 800_000,
      });
      expect(await queue.due(T0 + 10, 10, none)).to.deep.equal([]);
      expect(await queue.redeliver('h1', a.id, T0 + 10)).to.include({
        state: 'pending',
        next_attempt_at: T0 + 10,
      });
      expect(await queue.nextDueAt()).to.equal(T0 + 10);
      expect(await queue.due(T0 + 10, 10, none)).to.deep.equal([{ payload: a, attempts: 1 }]);
    });

    it('sends the payloads ahead of a pending one asked to be redelivered first, in order', async () => {
      const [a, b, c] = [outgoing('h1'), outgoing('h1'), outgoing('h1')];
      await queue.enqueue([a, b, c]);
      await queue.recordAttempt(a.id, attemptAt(T0, 500), {
        state: 'pending',
        next_attempt_at: T0 + 800_000,
      });
      // c waits behind a and b (on disk, where the outbox keeps only two in memory): asking for it
      // brings the hook's queue forward, a first.
      expect(await queue.redeliver('h1', c.id, T0 + 10)).to.include({ id: c.id, state: 'pending' });
      expect(await queue.due(T0 + 10, 10, none)).to.deep.equal([{ payload: a, attempts: 1 }]);
      await queue.recordAttempt(a.id, attemptAt(T0 + 10, 200), { state: 'delivered' });
      expect(await drain(queue)).to.deep.equal([b.id, c.id]);
    });

    it('prunes settled payloads created before the cutoff and never a pending one', async () => {
      const [old1, old2, oldPending, fresh] = [
        outgoing('h1', { created_at: T0 }),
        outgoing('h2', { created_at: T0 + 1 }),
        outgoing('h1', { created_at: T0 + 2 }),
        outgoing('h2', { created_at: T0 + 500 }),
      ];
      await queue.enqueue([old1, old2, oldPending, fresh]);
      await queue.recordAttempt(old1.id, attemptAt(T0, 200), { state: 'delivered' });
      await queue.recordAttempt(old2.id, attemptAt(T0, 500), { state: 'failed', reason: 'no' });
      await queue.recordAttempt(fresh.id, attemptAt(T0 + 500, 200), { state: 'delivered' });
      expect(await queue.prune(T0 + 100)).to.equal(2);
      expect(await queue.get('h1', old1.id)).to.equal(undefined);
      expect(await queue.get('h2', old2.id)).to.equal(undefined);
      expect(await queue.get('h1', oldPending.id)).to.include({ state: 'pending' });
      expect(await queue.get('h2', fresh.id)).to.include({ state: 'delivered' });
      expect(await dueIds(queue, T0 + 1000)).to.deep.equal([oldPending.id]);
    });

    it('hands out copies: editing what it returned changes nothing inside', async () => {
      const p = outgoing('h1', { apply: [{ index: 1, hash: '0xb1', tx_indexes: [0] }] });
      await queue.enqueue([p]);
      await queue.recordAttempt(p.id, attemptAt(T0), { state: 'pending', next_attempt_at: T0 });
      const record = (await queue.get('h1', p.id))!;
      record.attempts.push(attemptAt(T0 + 1));
      record.apply[0].tx_indexes.push(9);
      (await queue.list('h1', { offset: 0, limit: 1 })).results[0].attempts.length = 0;
      const [due] = await queue.due(T0, 1, none);
      due.payload.apply.length = 0;
      (await queue.sentApplies(['0xb1'])).get('h1')!.get('0xb1')!.push(4);
      p.apply[0].tx_indexes.push(8);
      const again = (await queue.get('h1', p.id))!;
      expect(again.attempts).to.have.length(1);
      expect(again.apply[0].tx_indexes).to.deep.equal([0]);
      expect((await queue.due(T0, 1, none))[0].payload.apply).to.have.length(1);
      expect((await queue.sentApplies(['0xb1'])).get('h1')!.get('0xb1')).to.deep.equal([0]);
    });

    // A store kept only in memory has nothing to reopen: the test is not registered for it.
    (options.persistent ? it : () => undefined)(
      'keeps payloads, pending order, attempts, states and sent blocks across a reopen',
      async function () {
        if (!subject.reopen) throw new Error('a persistent store under test must give reopen');
        const b1 = { index: 1, hash: '0xb1', tx_indexes: [1] };
        const [a1, a2, a3] = [outgoing('h1', { apply: [b1] }), outgoing('h1'), outgoing('h1')];
        const [c1, c2] = [outgoing('h2'), outgoing('h2')];
        const gone = outgoing('h3', { apply: [{ index: 2, hash: '0xb2', tx_indexes: [0] }] });
        await queue.enqueue([a1, c1, a2, gone, c2, a3, outgoing('h4'), outgoing('h4')]);
        await queue.recordAttempt(a1.id, attemptAt(T0, 500), { state: 'failed', reason: 'no' });
        await queue.recordAttempt(a2.id, attemptAt(T0 + 1), { state: 'pending', next_attempt_at: T0 + 60 });
        await queue.redeliver('h1', a1.id, T0 + 5);
        await queue.recordAttempt(c1.id, attemptAt(T0 + 2, 200), { state: 'delivered' });
        await queue.failPending('h4', 'interrupted');
        await queue.dropHook('h3');
        const before = await Promise.all(
          ['h1', 'h2', 'h3', 'h4'].map((h) => queue.list(h, { offset: 0, limit: 10 })),
        );
        const sentBefore = await queue.sentApplies(['0xb1', '0xb2']);

        queue = await subject.reopen!();
        const after = await Promise.all(
          ['h1', 'h2', 'h3', 'h4'].map((h) => queue.list(h, { offset: 0, limit: 10 })),
        );
        expect(after).to.deep.equal(before);
        expect(await queue.sentApplies(['0xb1', '0xb2'])).to.deep.equal(sentBefore);
        expect(await queue.nextDueAt()).to.equal(T0);
        expect(await queue.due(T0 + 60, 10, none)).to.deep.equal([
          { payload: c2, attempts: 0 },
          { payload: a2, attempts: 1 },
        ]);
        expect(await drain(queue)).to.deep.equal([c2.id, a2.id, a3.id, a1.id]);
        await queue.enqueue([a1]);
        expect((await queue.list('h1', { offset: 0, limit: 10 })).total).to.equal(3);
      },
    );

    (options.persistent ? it : () => undefined)(
      'keeps payloads that share blocks whole across a reopen, a redelivered one with its body too',
      async function () {
        const payloads = sharingBlocks(['h1', 'h2', 'h3'], 2);
        await queue.enqueue(payloads);
        await queue.recordAttempt(payloads[0].id, attemptAt(T0, 200), { state: 'delivered' });
        queue = await subject.reopen!();
        expect(await queue.redeliver('h1', payloads[0].id, T0 + 1)).to.include({ state: 'pending' });
        const due = await queue.due(T0 + 1, 10, none);
        expect(due.map((d) => d.payload)).to.have.deep.members(payloads);
      },
    );
  });
}
