import { expect } from 'chai';
import { MemoryOutbox } from '../../../adapters/outbox/memory-outbox.js';
import type { AttemptReport } from '../../../core/ports/delivery-queue.js';
import { AttemptRecorder } from '../../../core/use-cases/attempt-recorder.js';
import { attemptAt, outgoing } from '../../contracts/delivery-queue.contract.js';

/** A memory outbox whose batch writes wait for `open()` and can be told to fail; it logs each batch's ids. */
class GatedOutbox extends MemoryOutbox {
  readonly batches: string[][] = [];
  failNext = false;
  private gates: (() => void)[] = [];

  override async recordAttempts(reports: readonly AttemptReport[]): Promise<void> {
    this.batches.push(reports.map((r) => r.id));
    await new Promise<void>((resolve) => this.gates.push(resolve));
    if (this.failNext) {
      this.failNext = false;
      throw new Error('disk full');
    }
    await super.recordAttempts(reports);
  }

  /** Let the oldest waiting batch write go ahead. */
  open(): void {
    this.gates.shift()?.();
  }
}

const delivered = (id: string): AttemptReport => ({
  id,
  attempt: attemptAt(1, 200),
  outcome: { state: 'delivered' },
});

/** Let queued promise callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('AttemptRecorder', () => {
  it('writes a lone report at once, and the reports that arrive during a write together in the next', async () => {
    const outbox = new GatedOutbox();
    const [a, b, c, d] = ['h1', 'h2', 'h3', 'h4'].map((hook) => outgoing(hook));
    await outbox.enqueue([a, b, c, d]);
    const recorder = new AttemptRecorder(outbox);
    const first = recorder.record(delivered(a.id));
    const rest = [b, c, d].map((p) => recorder.record(delivered(p.id)));
    await settle();
    expect(outbox.batches).to.deep.equal([[a.id]]);
    outbox.open();
    await first;
    await settle();
    expect(outbox.batches).to.deep.equal([[a.id], [b.id, c.id, d.id]]);
    outbox.open();
    await Promise.all(rest);
    for (const p of [a, b, c, d])
      expect(await outbox.get(p.hook_uuid, p.id)).to.include({ state: 'delivered' });
  });

  it('rejects every report of a batch that failed to write, and writes later reports afresh', async () => {
    const outbox = new GatedOutbox();
    const [a, b, c, d] = ['h1', 'h2', 'h3', 'h4'].map((hook) => outgoing(hook));
    await outbox.enqueue([a, b, c, d]);
    const recorder = new AttemptRecorder(outbox);
    const first = recorder.record(delivered(a.id));
    const failing = [b, c].map((p) => recorder.record(delivered(p.id)).catch((err: Error) => err.message));
    outbox.open();
    await first;
    outbox.failNext = true;
    await settle();
    outbox.open();
    expect(await Promise.all(failing)).to.deep.equal(['disk full', 'disk full']);
    const later = recorder.record(delivered(d.id));
    await settle();
    outbox.open();
    await later;
    expect(outbox.batches).to.deep.equal([[a.id], [b.id, c.id], [d.id]]);
    expect(await outbox.get('h2', b.id)).to.include({ state: 'pending' });
    expect(await outbox.get('h4', d.id)).to.include({ state: 'delivered' });
  });
});
