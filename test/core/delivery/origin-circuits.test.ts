import { expect } from 'chai';
import { OriginCircuits } from '../../../core/delivery/origin-circuits.js';

const O = 'http://receiver.test';
const circuits = () => new OriginCircuits({ openAfterFailures: 3, openMs: 1000, maxOpenMs: 3000 });

describe('OriginCircuits', () => {
  it('opens after the set number of costly failures in a row, across the hooks of an origin', () => {
    const c = circuits();
    expect(c.settle(O, 'a', 'costly', 0)).to.equal(undefined);
    expect(c.settle(O, 'b', 'costly', 0)).to.equal(undefined);
    expect(c.settle(O, 'c', 'costly', 10)).to.equal('opened');
    expect(c.view(O)).to.deep.equal({ state: 'open', failures: 3, open_until: 1010 });
    const verdict = c.check(O, 'a', 500, 300);
    expect(verdict).to.include({ go: false, until: 1010 });
    expect(verdict.go === false && verdict.reason).to.match(/circuit for http:\/\/receiver\.test is open/);
  });

  it('starts counting again after any answer in time', () => {
    const c = circuits();
    c.settle(O, 'a', 'costly', 0);
    c.settle(O, 'a', 'costly', 0);
    c.settle(O, 'a', 'answered', 0);
    expect(c.settle(O, 'a', 'costly', 0)).to.equal(undefined);
    expect(c.view(O).state).to.equal('closed');
  });

  it('lets one probe through once the open time is over, holds the others, and closes when it is answered', () => {
    const c = circuits();
    for (let i = 0; i < 3; i++) c.settle(O, 'a', 'costly', 0);
    expect(c.check(O, 'b', 1000, 300)).to.deep.equal({ go: true, probe: true });
    expect(c.check(O, 'a', 1001, 300)).to.include({ go: false, until: 1301 });
    expect(c.view(O).state).to.equal('half_open');
    expect(c.settle(O, 'b', 'answered', 1100)).to.equal('closed');
    expect(c.check(O, 'a', 1101, 300)).to.deep.equal({ go: true, probe: false });
  });

  it('opens again for twice as long, up to the maximum, when the probe fails', () => {
    const c = circuits();
    for (let i = 0; i < 3; i++) c.settle(O, 'a', 'costly', 0);
    c.check(O, 'a', 1000, 300);
    expect(c.settle(O, 'a', 'costly', 1000)).to.equal('opened');
    expect(c.view(O).open_until).to.equal(3000);
    c.check(O, 'a', 3000, 300);
    c.settle(O, 'a', 'costly', 3000);
    expect(c.view(O).open_until).to.equal(6000);
  });

  it('ignores a late answer from an attempt that started before the circuit opened', () => {
    const c = circuits();
    for (let i = 0; i < 3; i++) c.settle(O, 'a', 'costly', 0);
    expect(c.settle(O, 'b', 'answered', 10)).to.equal(undefined);
    expect(c.view(O).state).to.equal('open');
  });

  it('keeps origins apart', () => {
    const c = circuits();
    for (let i = 0; i < 3; i++) c.settle(O, 'a', 'costly', 0);
    expect(c.check('http://other.test', 'x', 1, 300)).to.deep.equal({ go: true, probe: false });
    expect(c.openCount()).to.equal(1);
  });
});
