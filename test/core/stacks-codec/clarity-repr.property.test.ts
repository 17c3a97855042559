import { expect } from 'chai';
import fc from 'fast-check';
import { serializeCV, type ClarityValue } from '@stacks/transactions';
import { decodeClarityValue } from '../../../core/stacks-codec/clarity-repr.js';
import { clarityValue, clarityValueRepr } from '../../support/clarity-values.js';

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
