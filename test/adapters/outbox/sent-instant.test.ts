import { expect } from 'chai';
import fc from 'fast-check';
import { SentApplies } from '../../../adapters/outbox/sent-applies.js';

const send = (sent: SentApplies, hook: string, hash: string, tx_indexes: number[] = [0]) =>
  sent.track({ hook_uuid: hook, apply: [{ hash, index: 1, tx_indexes }], rollback: [] });

const HOOKS = ['a', 'b', 'c'];

describe('SentInstant', () => {
  it('gives each hook its blocks as they were when frozen, whatever was sent, rolled back or dropped since', () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('send' as const),
        hook: fc.constantFrom(...HOOKS),
        hash: fc.integer({ min: 0, max: 30 }).map((n) => `0x${n}`),
        indexes: fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 2 }),
      }),
      fc.record({
        kind: fc.constant('rollback' as const),
        hook: fc.constantFrom(...HOOKS),
        hash: fc.integer({ min: 0, max: 30 }).map((n) => `0x${n}`),
      }),
      fc.record({ kind: fc.constant('drop' as const), hook: fc.constantFrom(...HOOKS) }),
      // A hook's turn in the snapshot: it is taken in the middle of the changes.
      fc.record({ kind: fc.constant('take' as const), hook: fc.constantFrom(...HOOKS) }),
    );
    const before = fc.array(
      fc.record({ hook: fc.constantFrom(...HOOKS), hash: fc.integer({ min: 0, max: 30 }) }),
      { maxLength: 40 },
    );
    fc.assert(
      fc.property(before, fc.array(op, { maxLength: 60 }), (sends, ops) => {
        const sent = new SentApplies(6);
        for (const { hook, hash } of sends) send(sent, hook, `0x${hash}`, [hash % 4]);
        const atFreeze = new Map(HOOKS.map((hook) => [hook, sent.blocksOf(hook)]));
        const view = sent.freeze();
        const expected = new Map(
          HOOKS.filter((hook) => atFreeze.get(hook)!.length > 0).map((h) => [h, atFreeze.get(h)]),
        );
        expect(view.hooks().sort()).to.deep.equal([...expected.keys()].sort());
        const taken = new Map<string, unknown>();
        const take = (hook: string) => {
          if (view.hooks().includes(hook)) taken.set(hook, view.take(hook));
        };
        for (const o of ops) {
          if (o.kind === 'send') send(sent, o.hook, o.hash, o.indexes);
          else if (o.kind === 'rollback')
            sent.track({ hook_uuid: o.hook, apply: [], rollback: [{ hash: o.hash, index: 1 }] });
          else if (o.kind === 'drop') sent.dropHook(o.hook);
          else take(o.hook);
        }
        for (const hook of HOOKS) take(hook);
        sent.thaw();
        expect(taken).to.deep.equal(expected);
        expect(view.held).to.equal(0);
      }),
    );
  });

  it('holds only the blocks that went past the limit while the hooks are only sent new ones, not a copy of theirs', () => {
    const sent = new SentApplies(100);
    const hooks = Array.from({ length: 50 }, (_, i) => `hook-${i}`);
    for (let n = 0; n < 100; n++) for (const hook of hooks) send(sent, hook, `0x${n}`);
    const view = sent.freeze();
    for (let n = 100; n < 110; n++) for (const hook of hooks) send(sent, hook, `0x${n}`);
    expect(view.held).to.equal(hooks.length * 10);
    const first = view.take(hooks[0]);
    expect(first.map(([hash]) => hash)).to.deep.equal(Array.from({ length: 100 }, (_, n) => `0x${n}`));
    expect(view.held).to.equal((hooks.length - 1) * 10);
  });

  it('copies a hook’s blocks once a rollback changes them', () => {
    const sent = new SentApplies(100);
    for (let n = 0; n < 40; n++) send(sent, 'a', `0x${n}`);
    const view = sent.freeze();
    send(sent, 'a', '0x40');
    expect(view.held).to.equal(0);
    sent.track({
      hook_uuid: 'a',
      apply: [],
      rollback: [
        { hash: '0x40', index: 1 },
        { hash: '0x39', index: 1 },
      ],
    });
    expect(view.held).to.equal(40);
    expect(view.take('a').map(([hash]) => hash)).to.deep.equal(
      Array.from({ length: 40 }, (_, n) => `0x${n}`),
    );
  });
});
