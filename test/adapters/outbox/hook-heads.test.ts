import { expect } from 'chai';
import { HookHeads } from '../../../adapters/outbox/hook-heads.js';

const uuidsOf = (hooks: { uuid: string }[]) => hooks.map((hook) => hook.uuid);

describe('HookHeads', () => {
  it('leaves a busy hook out until it is free, then gives it again at its old due time', () => {
    const heads = new HookHeads();
    const [a, b] = [heads.newQueue('a'), heads.newQueue('b')];
    heads.moved(a, { at: 10, seq: 1 });
    heads.moved(b, { at: 20, seq: 2 });
    expect(uuidsOf(heads.due(100, 10, (uuid) => uuid === 'a'))).to.deep.equal(['b']);
    expect(uuidsOf(heads.due(100, 10, (uuid) => uuid === 'a'))).to.deep.equal(['b']);
    expect(uuidsOf(heads.due(100, 10, () => false))).to.deep.equal(['a', 'b']);
  });

  it('counts a busy hook’s head in the earliest due time', () => {
    const heads = new HookHeads();
    const [a, b] = [heads.newQueue('a'), heads.newQueue('b')];
    heads.moved(a, { at: 10, seq: 1 });
    heads.moved(b, { at: 20, seq: 2 });
    heads.due(100, 10, (uuid) => uuid === 'a');
    expect(heads.nextDueAt()).to.equal(10);
  });

  it('gives a hook whose head moved while it was busy at its new time only', () => {
    const heads = new HookHeads();
    const a = heads.newQueue('a');
    heads.moved(a, { at: 10, seq: 1 });
    heads.due(100, 10, () => true);
    heads.moved(a, { at: 50, seq: 2 });
    expect(uuidsOf(heads.due(40, 10, () => false))).to.deep.equal([]);
    expect(heads.nextDueAt()).to.equal(50);
    expect(uuidsOf(heads.due(60, 10, () => false))).to.deep.equal(['a']);
  });

  it('forgets a busy hook that is dropped', () => {
    const heads = new HookHeads();
    const a = heads.newQueue('a');
    heads.moved(a, { at: 10, seq: 1 });
    heads.due(100, 10, () => true);
    heads.dropped(a);
    expect(heads.nextDueAt()).to.equal(undefined);
    expect(uuidsOf(heads.due(100, 10, () => false))).to.deep.equal([]);
  });
});
