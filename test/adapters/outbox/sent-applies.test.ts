import { expect } from 'chai';
import fc from 'fast-check';
import type { PayloadSegments } from '../../../adapters/outbox/payload-segments.js';
import { SentApplies } from '../../../adapters/outbox/sent-applies.js';
import { SentOnDisk } from '../../../adapters/outbox/sent-on-disk.js';
import { segmentsPerTest } from '../../support/segments-folder.js';

const apply = (hook_uuid: string, hash: string, tx_indexes: number[]) => ({
  hook_uuid,
  apply: [{ hash, index: 1, tx_indexes }],
  rollback: [],
});

describe('SentApplies', () => {
  it('answers a lookup with the transactions each hook was sent of the blocks asked', () => {
    const sent = new SentApplies();
    sent.track(apply('a', '0x01', [0, 2]));
    sent.track(apply('b', '0x01', [1]));
    sent.track(apply('b', '0x02', [3]));
    const found = sent.lookup(['0x01', '0x03']);
    expect([...found.keys()].sort()).to.deep.equal(['a', 'b']);
    expect([...found.get('a')!]).to.deep.equal([['0x01', [0, 2]]]);
    expect([...found.get('b')!]).to.deep.equal([['0x01', [1]]]);
  });

  it('forgets a block a rollback took back from a hook', () => {
    const sent = new SentApplies();
    sent.track(apply('a', '0x01', [0]));
    sent.track({
      hook_uuid: 'a',
      apply: [{ hash: '0x02', index: 1, tx_indexes: [0] }],
      rollback: [{ hash: '0x01', index: 1 }],
    });
    expect(sent.lookup(['0x01']).size).to.equal(0);
    expect(sent.blocksOf('a').map(([hash]) => hash)).to.deep.equal(['0x02']);
  });

  it('holds one index list for the hooks sent the same transactions, and again after a restore', () => {
    const sent = new SentApplies();
    for (const hook of ['a', 'b', 'c']) sent.track(apply(hook, '0x01', [0, 1, 2, 3]));
    const lists = ['a', 'b', 'c'].map((hook) => sent.blocksOf(hook)[0][1]);
    expect(lists[1]).to.equal(lists[0]);
    expect(lists[2]).to.equal(lists[0]);

    const restored = new SentApplies();
    for (const hook of ['a', 'b']) restored.restore(hook, JSON.parse(JSON.stringify(sent.blocksOf(hook))));
    expect(restored.blocksOf('b')[0][1]).to.equal(restored.blocksOf('a')[0][1]);
    expect(restored.blocksOf('b')[0][1]).to.deep.equal([0, 1, 2, 3]);
  });

  it('does not let a caller change a list it tracked or read', () => {
    const sent = new SentApplies();
    const indexes = [4, 5];
    sent.track(apply('a', '0x01', indexes));
    indexes.push(6);
    expect(sent.blocksOf('a')[0][1]).to.deep.equal([4, 5]);
    expect(() => (sent.blocksOf('a')[0][1] as number[]).push(7)).to.throw(TypeError);
    sent.lookup(['0x01']).get('a')!.get('0x01')!.push(8);
    expect(sent.blocksOf('a')[0][1]).to.deep.equal([4, 5]);
  });

  it('keeps each hook its newest blocks up to the limit, as a model of the sends says', () => {
    const op = fc.record({
      hook: fc.constantFrom('a', 'b'),
      hash: fc.integer({ min: 0, max: 12 }).map((n) => `0x${n}`),
      indexes: fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 3 }),
    });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        const sent = new SentApplies(5);
        const model = new Map<string, Map<string, number[]>>();
        for (const { hook, hash, indexes } of ops) {
          sent.track(apply(hook, hash, indexes));
          const blocks = model.get(hook) ?? new Map<string, number[]>();
          blocks.delete(hash);
          blocks.set(hash, indexes);
          while (blocks.size > 5) blocks.delete(blocks.keys().next().value!);
          model.set(hook, blocks);
        }
        for (const [hook, blocks] of model) expect(sent.blocksOf(hook)).to.deep.equal([...blocks]);
        const hashes = [...new Set(ops.map((o) => o.hash))];
        const found = sent.lookup(hashes);
        for (const [hook, blocks] of model) expect(found.get(hook) ?? new Map()).to.deep.equal(blocks);
      }),
    );
  });
});

describe('SentApplies with blocks on disk', () => {
  let segments: PayloadSegments;
  segmentsPerTest((opened) => (segments = opened));

  const hash = (n: number) => `0x${n.toString(16).padStart(4, '0')}`;

  it('keeps only its newest blocks in memory however many were sent, and answers for the older ones from disk', () => {
    const sent = new SentApplies(10_000, new SentOnDisk(segments), 8);
    for (let n = 0; n < 500; n++) {
      for (const hook of ['a', 'b']) sent.track(apply(hook, hash(n), [n % 3]));
      sent.spill();
    }
    expect(sent.blocksOf('a').length).to.equal(8);
    expect(sent.blocksOf('b').length).to.equal(8);
    const found = sent.lookup([hash(0), hash(499)]);
    expect([...found.get('a')!]).to.deep.equal([
      [hash(0), [0]],
      [hash(499), [499 % 3]],
    ]);
    expect([...found.get('b')!.keys()]).to.deep.equal([hash(0), hash(499)]);
  });

  it('forgets a rollback of a block on disk, in memory at once and on disk once spilled, as a replay of the moves does', () => {
    const sent = new SentApplies(10_000, new SentOnDisk(segments), 2);
    const replayed = new SentApplies(10_000, new SentOnDisk(segments), 2);
    const both = (payload: Parameters<SentApplies['track']>[0]) => {
      sent.track(payload);
      replayed.track(payload);
      for (const move of sent.spill()) replayed.movedToDisk(move.hash, move.loc, move.replace);
    };
    for (let n = 0; n < 5; n++) for (const hook of ['a', 'b']) both(apply(hook, hash(n), [n]));
    both({ hook_uuid: 'a', apply: [], rollback: [{ hash: hash(0), index: 1 }] });
    for (const outbox of [sent, replayed]) {
      const found = outbox.lookup([hash(0)]);
      expect([...found.keys()]).to.deep.equal(['b']);
      expect([...found.get('b')!]).to.deep.equal([[hash(0), [0]]]);
    }
    both({ hook_uuid: 'b', apply: [], rollback: [{ hash: hash(0), index: 1 }] });
    expect(sent.lookup([hash(0)]).size).to.equal(0);
    expect(replayed.lookup([hash(0)]).size).to.equal(0);
  });
});
