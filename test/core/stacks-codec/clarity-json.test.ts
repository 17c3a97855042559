import { Cl, type ClarityValue } from '@stacks/transactions';
import { expect } from 'chai';
import fc from 'fast-check';
import { clarityJson } from '../../../core/stacks-codec/clarity-json.js';
import { clarityValue } from '../../support/clarity-values.js';

const json = (value: ClarityValue) => clarityJson(`0x${Cl.serialize(value)}`);
const POX = 'SP000000000000000000002Q6VF78';

describe("clarityJson (1.x's decode_clarity_values)", () => {
  it('gives integers as numbers, and as decimal strings past what a JSON number holds exactly', () => {
    expect(json(Cl.uint(7))).to.equal(7);
    expect(json(Cl.int(-42))).to.equal(-42);
    expect(json(Cl.uint(2n ** 53n))).to.equal('9007199254740992');
    expect(json(Cl.int(-(2n ** 100n)))).to.equal((-(2n ** 100n)).toString());
  });

  it('gives booleans, principals without their quote, buffers as 0x hex and strings as text', () => {
    expect(json(Cl.bool(true))).to.equal(true);
    expect(json(Cl.bool(false))).to.equal(false);
    expect(json(Cl.standardPrincipal(POX))).to.equal(POX);
    expect(json(Cl.contractPrincipal(POX, 'pox-4'))).to.equal(`${POX}.pox-4`);
    expect(json(Cl.bufferFromHex('abcd'))).to.equal('0xabcd');
    expect(json(Cl.stringAscii('hello'))).to.equal('hello');
    expect(json(Cl.stringUtf8('héllo ✓'))).to.equal('héllo ✓');
  });

  it('gives none as null, some as its value, and a response as {result: {success, value}}', () => {
    expect(json(Cl.none())).to.equal(null);
    expect(json(Cl.some(Cl.uint(1)))).to.equal(1);
    expect(json(Cl.ok(Cl.bool(true)))).to.deep.equal({ result: { success: true, value: true } });
    expect(json(Cl.error(Cl.uint(403)))).to.deep.equal({ result: { success: false, value: 403 } });
  });

  it('gives tuples as objects and lists as arrays, nested', () => {
    const value = Cl.tuple({
      action: Cl.stringAscii('list'),
      ids: Cl.list([Cl.uint(1), Cl.uint(2)]),
      owner: Cl.some(Cl.standardPrincipal(POX)),
    });
    expect(json(value)).to.deep.equal({ action: 'list', ids: [1, 2], owner: POX });
  });

  it('gives back the hex it was given when the bytes are no Clarity value', () => {
    expect(clarityJson('0xff00')).to.equal('0xff00');
  });

  it('turns every Clarity value into JSON that survives a round trip through its text', () => {
    fc.assert(
      fc.property(clarityValue, (value) => {
        const decoded = json(value);
        expect(JSON.parse(JSON.stringify(decoded))).to.deep.equal(decoded);
      }),
    );
  });
});
