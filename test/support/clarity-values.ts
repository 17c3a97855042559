// Clarity values for property tests: an arbitrary covering every value shape, and the repr of a
// value the library decoded, to check stackhooks' byte decoder against.
import fc from 'fast-check';
import {
  Cl,
  ClarityType,
  addressFromVersionHash,
  addressToString,
  type ClarityValue,
} from '@stacks/transactions';
import { asciiRepr, listRepr, tupleRepr, utf8Repr } from '../../core/stacks-codec/clarity-text.js';

const hex20 = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => Buffer.from(b).toString('hex'));

/** A c32 address of any of the four network versions. */
export const address = fc
  .tuple(fc.constantFrom(20, 21, 22, 26), hex20)
  .map(([version, hash]) => addressToString(addressFromVersionHash(version, hash)));

/** A contract name as Clarity allows it. */
export const contractName = fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9_-]{0,39}$/);

const clarityName = fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/);

/** Every Clarity value shape, nested a few levels, principals on every network version. */
export const clarityValue: fc.Arbitrary<ClarityValue> = fc.letrec<{ value: ClarityValue }>((tie) => ({
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

/**
 * The canonical repr and inferred type of a value as `@stacks/transactions` decoded it: a second
 * route to the text `decodeClarityValue` reads from bytes, through the library's value boundaries
 * and principal encoding instead of stackhooks' own.
 */
export function clarityValueRepr(cv: ClarityValue): { repr: string; type: string } {
  switch (cv.type) {
    case ClarityType.Int:
      return { repr: BigInt(cv.value).toString(), type: 'int' };
    case ClarityType.UInt:
      return { repr: `u${BigInt(cv.value).toString()}`, type: 'uint' };
    case ClarityType.Buffer:
      return { repr: `0x${cv.value.toLowerCase()}`, type: `(buff ${cv.value.length / 2})` };
    case ClarityType.BoolTrue:
      return { repr: 'true', type: 'bool' };
    case ClarityType.BoolFalse:
      return { repr: 'false', type: 'bool' };
    case ClarityType.PrincipalStandard:
    case ClarityType.PrincipalContract:
      return { repr: `'${cv.value}`, type: 'principal' };
    case ClarityType.ResponseOk: {
      const inner = clarityValueRepr(cv.value);
      return { repr: `(ok ${inner.repr})`, type: `(response ${inner.type} UnknownType)` };
    }
    case ClarityType.ResponseErr: {
      const inner = clarityValueRepr(cv.value);
      return { repr: `(err ${inner.repr})`, type: `(response UnknownType ${inner.type})` };
    }
    case ClarityType.OptionalNone:
      return { repr: 'none', type: '(optional UnknownType)' };
    case ClarityType.OptionalSome: {
      const inner = clarityValueRepr(cv.value);
      return { repr: `(some ${inner.repr})`, type: `(optional ${inner.type})` };
    }
    case ClarityType.List:
      return listRepr(cv.value.map(clarityValueRepr));
    case ClarityType.Tuple:
      return tupleRepr(
        Object.entries(cv.value).map(([name, value]) => ({ name, value: clarityValueRepr(value) })),
      );
    case ClarityType.StringASCII:
      return asciiRepr(cv.value);
    case ClarityType.StringUTF8:
      return utf8Repr(cv.value);
  }
}
