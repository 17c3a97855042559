import { expect } from 'chai';
import { DeliveryLanes } from '../../../core/delivery/delivery-lanes.js';

const lanes = () => new DeliveryLanes({ normalSlots: 2, slowSlots: 1, slowAfterMs: 1000 });

describe('DeliveryLanes', () => {
  it('starts a hook in good standing in the normal lane until its slots are taken', () => {
    const l = lanes();
    expect(l.start('a', 0)).to.equal('normal');
    expect(l.start('b', 0)).to.equal('normal');
    expect(l.hasRoom('c')).to.equal(false);
    expect(l.free()).to.deep.equal({ normal: 0, slow: 1 });
  });

  it('moves an attempt that has run past the threshold to the slow lane, freeing its normal slot', () => {
    const l = lanes();
    l.start('a', 0);
    l.start('b', 500);
    expect(l.nextReviewAt()).to.equal(1000);
    expect(l.review(999)).to.deep.equal([]);
    expect(l.review(1000)).to.deep.equal(['a']);
    expect(l.inFlight()).to.deep.equal({ normal: 1, slow: 1 });
    expect(l.nextReviewAt()).to.equal(1500);
    expect(l.laneOf('a')).to.equal('slow');
  });

  it('moves attempts to the slow lane even when its slots are taken, so the normal lane never waits', () => {
    const l = lanes();
    l.start('a', 0);
    l.start('b', 0);
    expect(l.review(1000)).to.deep.equal(['a', 'b']);
    expect(l.inFlight()).to.deep.equal({ normal: 0, slow: 2 });
    expect(l.free()).to.deep.equal({ normal: 2, slow: 0 });
  });

  it('starts a slow hook in the slow lane, and only while it has a free slot', () => {
    const l = lanes();
    l.start('a', 0);
    l.finish('a', 1500);
    expect(l.laneOf('a')).to.equal('slow');
    expect(l.start('a', 2000)).to.equal('slow');
    l.start('x', 2000);
    l.finish('x', 3000);
    expect(l.hasRoom('x')).to.equal(false);
    expect(l.hasRoom('fresh')).to.equal(true);
  });

  it('counts a hook fast again after an answer within half the threshold, and keeps its standing in between', () => {
    const l = lanes();
    l.start('a', 0);
    l.finish('a', 2000);
    l.start('a', 0);
    l.finish('a', 700);
    expect(l.laneOf('a')).to.equal('slow');
    l.start('a', 0);
    expect(l.finish('a', 100)).to.equal('slow');
    expect(l.laneOf('a')).to.equal('normal');
  });

  it('gives a slot back without learning anything when the attempt never went out', () => {
    const l = lanes();
    l.start('a', 0);
    expect(l.finish('a')).to.equal('normal');
    expect(l.free()).to.deep.equal({ normal: 2, slow: 1 });
    expect(l.laneOf('a')).to.equal('normal');
    expect(l.finish('a')).to.equal(undefined);
  });
});
