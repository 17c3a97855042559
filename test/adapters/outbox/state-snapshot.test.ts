import { expect } from 'chai';
import { applyEntry } from '../../../adapters/outbox/journal-entry.js';
import { OutboxState } from '../../../adapters/outbox/outbox-state.js';
import { MemoryPayloads } from '../../../adapters/outbox/payload-store.js';
import { StateSnapshot } from '../../../adapters/outbox/state-snapshot.js';
import { T0, attemptAt, outgoing } from '../../contracts/delivery-queue.contract.js';

const HOOKS = ['h0', 'h1', 'h2'];

// Every framed record of the slices, replayed into a fresh state.
function replay(slices: Iterable<Buffer>): OutboxState {
  const state = new OutboxState(new MemoryPayloads(), Infinity);
  for (const slice of slices) {
    for (let at = 0; at < slice.length;) {
      const length = slice.readUInt32LE(at);
      applyEntry(state, slice.subarray(at + 8, at + 8 + length));
      at += 8 + length;
    }
  }
  return state;
}

const logs = (state: OutboxState) => HOOKS.map((hook) => state.list(hook, { offset: 0, limit: 1_000 }));

describe('StateSnapshot', () => {
  it('shows the state as it was when taken, though entries changed and went before they were encoded', () => {
    const state = new OutboxState(new MemoryPayloads(), Infinity, { keepDeliveredBodiesMs: 10 });
    const payloads = Array.from({ length: 60 }, (_, i) => outgoing(HOOKS[i % 3], { created_at: T0 + i }));
    state.enqueue(payloads);
    for (const p of payloads.slice(0, 9))
      state.recordAttempt(p.id, attemptAt(T0 + 100, 200), { state: 'delivered' });
    const before = logs(state);
    const snapshot = StateSnapshot.take(state);
    const slices = snapshot.slices(256);
    // The first slices are encoded before the changes, the rest after them.
    const early = [slices.next().value!, slices.next().value!];
    for (const p of payloads.slice(9, 30))
      state.recordAttempt(p.id, attemptAt(T0 + 200, 500), { state: 'failed', reason: 'no' });
    state.redeliver('h0', payloads[0].id, T0 + 300);
    state.enqueue([outgoing('h1', { created_at: T0 + 400 })]);
    state.prune(T0 + 1_000, T0 + 1_000);
    const after = logs(state);
    snapshot.release();
    expect(logs(replay([...early, ...slices]))).to.deep.equal(before);
    expect(after).to.not.deep.equal(before);
  });

  it('shows the blocks sent to each hook as they were when taken, though hooks were sent more or dropped before they were encoded', () => {
    const state = new OutboxState(new MemoryPayloads(), Infinity);
    const block = (n: number) => ({ index: n, hash: `0x${n}`, tx_indexes: [n % 3] });
    const hashes = Array.from({ length: 30 }, (_, n) => `0x${n}`);
    for (let n = 0; n < 20; n++)
      state.enqueue(HOOKS.map((hook) => outgoing(hook, { apply: [block(n)], created_at: T0 + n })));
    const before = state.sentApplies(hashes);
    const snapshot = StateSnapshot.take(state);
    const slices = snapshot.slices(256);
    const early = [slices.next().value!];
    for (let n = 20; n < 30; n++) state.enqueue([outgoing('h1', { apply: [block(n)], created_at: T0 + n })]);
    state.enqueue([outgoing('h2', { apply: [], rollback: [block(19)], created_at: T0 + 40 })]);
    state.dropHook('h0');
    const after = state.sentApplies(hashes);
    snapshot.release();
    expect(replay([...early, ...slices]).sentApplies(hashes)).to.deep.equal(before);
    expect(after).to.not.deep.equal(before);
  });

  it('hands out slices of about the size asked for', () => {
    const state = new OutboxState(new MemoryPayloads(), Infinity);
    state.enqueue(Array.from({ length: 200 }, (_, i) => outgoing('h0', { created_at: T0 + i })));
    const slices = [...StateSnapshot.take(state).slices(4_096)];
    expect(slices.length).to.be.above(5);
    for (const slice of slices.slice(0, -1)) expect(slice.length).to.be.within(4_096, 8_192);
  });
});
