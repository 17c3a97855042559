import { expect } from 'chai';
import { SETTLED_CHUNK, SettledRun, type SettledPayload } from '../../../adapters/outbox/settled-run.js';

function settled(seq: number, created: number, overrides: Partial<SettledPayload> = {}): SettledPayload {
  return {
    payload: { seg: 1, off: seq * 100, len: 90 },
    settlement: { seg: 2, off: seq * 50, len: 40 },
    seq,
    created_at: created,
    hash: seq * 7,
    state: seq % 3 === 0 ? 'failed' : 'delivered',
    delivered_at: seq % 3 === 0 ? null : created + 5,
    ...overrides,
  };
}

const all = (run: SettledRun) => [...run.payloads()];

describe('SettledRun', () => {
  it('keeps payloads sorted by creation then enqueue order, a late one placed in the middle', () => {
    const run = new SettledRun();
    for (let i = 0; i < 40; i++) if (i !== 17) run.insert(settled(i, 1000 + i));
    run.insert(settled(17, 1017));
    run.insert(settled(41, 1017));
    expect(all(run).map((p) => p.seq)).to.deep.equal([
      ...Array(18).keys(),
      41,
      ...Array.from({ length: 22 }, (_, i) => i + 18),
    ]);
    expect(run.at(18)).to.deep.equal(settled(41, 1017));
    expect(run.find(1017, 41)).to.equal(18);
    expect(run.find(1017, 99)).to.equal(-1);
    expect(run.counts).to.deep.equal({ failed: 14, delivered: 27 });
  });

  it('keeps what a snapshot shared as it was while the run changes in place, at its back and front', () => {
    const run = new SettledRun();
    for (let i = 0; i < 10; i++) run.insert(settled(i, 1000 + i));
    const view = run.share();
    const before = all(run);
    run.removeAt(4);
    run.dropBody(2);
    run.insert(settled(20, 1001));
    run.insert(settled(21, 2000));
    run.dropCreatedBefore(1003);
    const restored = new SettledRun();
    for (const chunk of SettledRun.chunks(view)) restored.restoreChunk(chunk);
    expect(all(restored)).to.deep.equal(before);
    expect(all(run).map((p) => p.seq)).to.deep.equal([3, 5, 6, 7, 8, 9, 21]);
    expect(run.at(0).payload).to.deep.equal(settled(3, 1003).payload);
  });

  it('lets a body go once, keeping the rest of the payload', () => {
    const run = new SettledRun();
    run.insert(settled(1, 1000));
    expect(run.dropBody(0)).to.deep.equal(settled(1, 1000).payload);
    expect(run.dropBody(0)).to.equal(undefined);
    expect(run.at(0)).to.deep.equal(settled(1, 1000, { payload: undefined }));
  });

  it('writes a long run as chunks that restore it whole, and finds candidates by id hash', () => {
    const run = new SettledRun();
    const count = SETTLED_CHUNK * 2 + 10;
    for (let i = 0; i < count; i++) run.insert(settled(i, 1000 + i));
    const chunks = [...SettledRun.chunks(run.share())];
    expect(chunks).to.have.length(3);
    const restored = new SettledRun();
    for (const chunk of chunks) restored.restoreChunk(chunk);
    expect(all(restored)).to.deep.equal(all(run));
    expect(restored.counts).to.deep.equal(run.counts);
    expect(restored.positionsOf(7 * 2000)).to.deep.equal([2000]);
  });
});
