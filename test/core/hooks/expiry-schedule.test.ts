import { expect } from 'chai';
import { ExpirySchedule } from '../../../core/hooks/expiry-schedule.js';

describe('ExpirySchedule', () => {
  it('finds the hooks due at the positions after `from` up to `to`, and none outside them', () => {
    const schedule = new ExpirySchedule();
    schedule.set('a', 3);
    schedule.set('b', 5);
    schedule.set('c', 5);
    schedule.set('d', 6);
    expect(schedule.due(2, 5).sort()).to.deep.equal(['a', 'b', 'c']);
    expect(schedule.due(3, 4)).to.deep.equal([]);
    expect(schedule.due(5, 6)).to.deep.equal(['d']);
  });

  it('keeps due hooks scheduled until they are set again or deleted', () => {
    const schedule = new ExpirySchedule();
    schedule.set('a', 3);
    expect(schedule.due(0, 3)).to.deep.equal(['a']);
    expect(schedule.has('a')).to.equal(true);
    schedule.set('a', 8);
    expect(schedule.due(0, 7)).to.deep.equal([]);
    expect(schedule.due(7, 8)).to.deep.equal(['a']);
    schedule.delete('a');
    expect(schedule.has('a')).to.equal(false);
    expect(schedule.due(0, 10)).to.deep.equal([]);
  });

  it('ignores deleting a hook it never scheduled', () => {
    const schedule = new ExpirySchedule();
    schedule.delete('nobody');
    expect(schedule.has('nobody')).to.equal(false);
  });
});
