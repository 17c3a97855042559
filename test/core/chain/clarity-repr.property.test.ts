import { expect } from 'chai';
import fc from 'fast-check';
import {
  Cl,
  addressFromVersionHash,
  addressToString,
  serializeCV,
  type ClarityValue,
} from '@stacks/transactions';
import { decodeClarityValue } from '../../../core/chain/clarity-repr.js';
import { clarityValueRepr } from '../../../core/chain/clarity-text.js';

const hex20 = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => Buffer.from(b).toString('hex'));
const address = fc
  .tuple(fc.constantFrom(20, 21, 22, 26), hex20)
  .map(([version, hash]) => addressToString(addressFromVersionHash(version, hash)));
const contractName = fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9_-]{0,39}$/);
const clarityName = fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/);

/** Every Clarity value shape, nested a few levels, principals on every network version. */
const clarityValue: fc.Arbitrary<ClarityValue> = fc.letrec<{ value: ClarityValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.bigInt({ min: -(2n ** 127n), max: 2n ** 127n - 1n }).map((n) => Cl.int(n)),
    fc.bigInt({ min: 0n, max: 2n ** 128n - 1n }).map((n) => Cl.uint(n)),
    fc.boolean().map((b) => Cl.bool(b)),
    fc.uint8Array({ maxLength: 40 }).map((b) => Cl.buffer(b)),
    address.map((a) => Cl.standardPrincipal(a)),
    fc.tuple(address, contractName).map(([a, n]) => Cl.contractPrincipal(a, n)),
    fc
      .string({ unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)), maxLength: 20 })
      .map((s) => Cl.stringAscii(s)),
    fc.string({ unit: 'grapheme', maxLength: 10 }).map((s) => Cl.stringUtf8(s)),
    fc.constant(Cl.none()),
    tie('value').map((v) => Cl.some(v)),
    tie('value').map((v) => Cl.ok(v)),
    tie('value').map((v) => Cl.error(v)),
    fc.array(tie('value'), { maxLength: 4 }).map((items) => Cl.list(items)),
    fc.dictionary(clarityName, tie('value'), { maxKeys: 4 }).map((fields) => Cl.tuple(fields)),
  ),
})).value;

/** Every principal inside a value, as the library holds it (without the quote). */
function principalsOf(cv: ClarityValue): string[] {
  switch (cv.type) {
    case 'address':
    case 'contract':
      return [cv.value];
    case 'some':
    case 'ok':
    case 'err':
      return principalsOf(cv.value);
    case 'list':
      return cv.value.flatMap(principalsOf);
    case 'tuple':
      return Object.values(cv.value).flatMap(principalsOf);
    default:
      return [];
  }
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('decodeClarityValue (properties)', () => {
  it('decodes the serialization of any Clarity value without throwing', () => {
    fc.assert(
      fc.property(clarityValue, (cv) => {
        decodeClarityValue(serializeCV(cv));
      }),
    );
  });

  it("prints every principal inside any value with a leading '", () => {
    fc.assert(
      fc.property(clarityValue, (cv) => {
        const { repr } = decodeClarityValue(serializeCV(cv));
        for (const principal of principalsOf(cv)) {
          // A contract principal also contains its address: count whole occurrences only.
          expect(occurrences(repr, principal), principal).to.equal(occurrences(repr, `'${principal}`));
          expect(repr).to.include(`'${principal}`);
        }
      }),
    );
  });

  it('prints the same repr and type from the decoded value as from its bytes', () => {
    fc.assert(
      fc.property(clarityValue, (cv) => {
        const fromBytes = decodeClarityValue(serializeCV(cv));
        expect(clarityValueRepr(cv)).to.deep.equal({ repr: fromBytes.repr, type: fromBytes.type });
      }),
    );
  });
});
