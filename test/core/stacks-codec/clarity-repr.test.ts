import { expect } from 'chai';
import { Cl, serializeCV, type ClarityValue } from '@stacks/transactions';
import {
  ADDRESS_MEMO_LIMIT,
  ClarityDecodeError,
  c32Address,
  createReprCache,
  decodeClarityValue,
  decodeClarityValuesAt,
} from '../../../core/stacks-codec/clarity-repr.js';

const ALEX = 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9';
const TESTNET = 'ST1PQHQKV0RJXZFY1DGX8MNSNYVE3VGZJSRTPGZGM';

/** The decode of a value's serialization. */
const decode = (cv: ClarityValue) => decodeClarityValue(serializeCV(cv));

describe('decodeClarityValue', () => {
  describe('repr and type of each Clarity type', () => {
    it('prints a uint with its u prefix', () => {
      expect(decode(Cl.uint(1))).to.include({ repr: 'u1', type: 'uint' });
    });

    it('prints a uint beyond 2^64 exactly', () => {
      expect(decode(Cl.uint(2n ** 128n - 1n)).repr).to.equal(`u${2n ** 128n - 1n}`);
    });

    it('prints a negative int in decimal', () => {
      expect(decode(Cl.int(-1))).to.include({ repr: '-1', type: 'int' });
    });

    it('prints the smallest int', () => {
      expect(decode(Cl.int(-(2n ** 127n))).repr).to.equal(`${-(2n ** 127n)}`);
    });

    it('prints booleans as true and false', () => {
      expect(decode(Cl.bool(true))).to.include({ repr: 'true', type: 'bool' });
      expect(decode(Cl.bool(false))).to.include({ repr: 'false', type: 'bool' });
    });

    it('prints a buffer as 0x hex typed by its length', () => {
      expect(decode(Cl.bufferFromHex('0102'))).to.include({ repr: '0x0102', type: '(buff 2)' });
    });

    it('prints an empty buffer as 0x', () => {
      expect(decode(Cl.bufferFromHex(''))).to.include({ repr: '0x', type: '(buff 0)' });
    });

    it("prints a standard principal with a leading '", () => {
      expect(decode(Cl.standardPrincipal(ALEX))).to.include({ repr: `'${ALEX}`, type: 'principal' });
    });

    it("prints a contract principal with a leading ' before the address", () => {
      expect(decode(Cl.contractPrincipal(ALEX, 'alex-vault'))).to.include({
        repr: `'${ALEX}.alex-vault`,
        type: 'principal',
      });
    });

    it('keeps the address version of a testnet principal', () => {
      expect(decode(Cl.standardPrincipal(TESTNET)).repr).to.equal(`'${TESTNET}`);
    });

    it('prints ok and err responses, typing the unknown side UnknownType', () => {
      expect(decode(Cl.ok(Cl.bool(true)))).to.include({
        repr: '(ok true)',
        type: '(response bool UnknownType)',
      });
      expect(decode(Cl.error(Cl.uint(3)))).to.include({
        repr: '(err u3)',
        type: '(response UnknownType uint)',
      });
    });

    it('prints none and some', () => {
      expect(decode(Cl.none())).to.include({ repr: 'none', type: '(optional UnknownType)' });
      expect(decode(Cl.some(Cl.uint(1)))).to.include({ repr: '(some u1)', type: '(optional uint)' });
    });

    it('prints a list typed by its length and first element', () => {
      expect(decode(Cl.list([Cl.uint(1), Cl.uint(2)]))).to.include({
        repr: '(list u1 u2)',
        type: '(list 2 uint)',
      });
    });

    it('prints an empty list as (list) of UnknownType', () => {
      expect(decode(Cl.list([]))).to.include({ repr: '(list)', type: '(list 0 UnknownType)' });
    });

    it('prints a tuple with each field in parentheses', () => {
      expect(decode(Cl.tuple({ a: Cl.uint(1), b: Cl.bufferFromHex('01') }))).to.include({
        repr: '(tuple (a u1) (b 0x01))',
        type: '(tuple (a uint) (b (buff 1)))',
      });
    });

    it('sorts tuple fields by name even when serialized out of order', () => {
      // Cl.tuple serializes keys in object order; consensus would have sorted them.
      const unsorted = Cl.tuple({ b: Cl.uint(2), a: Cl.uint(1) });
      expect(decode(unsorted).repr).to.equal('(tuple (a u1) (b u2))');
    });

    it('prints an ASCII string in double quotes', () => {
      expect(decode(Cl.stringAscii('abc'))).to.include({ repr: '"abc"', type: '(string-ascii 3)' });
    });

    it("escapes quotes, backslashes and control characters in an ASCII string as Rust's escape_default", () => {
      expect(decode(Cl.stringAscii('a"b\'c\\d\ne\tf\rg\x01')).repr).to.equal(
        '"a\\"b\\\'c\\\\d\\ne\\tf\\rg\\x01"',
      );
    });

    it('prints a UTF-8 string with u and sizes it at four bytes a character', () => {
      expect(decode(Cl.stringUtf8('hi'))).to.include({ repr: 'u"hi"', type: '(string-utf8 8)' });
    });

    it('escapes a non-ASCII character as the hex of its UTF-8 bytes', () => {
      expect(decode(Cl.stringUtf8('é🚀')).repr).to.equal('u"\\u{c3a9}\\u{f09f9a80}"');
    });
  });

  describe('nested principals', () => {
    it("keeps the ' on principals inside tuples, lists, optionals and responses", () => {
      const value = Cl.ok(
        Cl.tuple({
          owner: Cl.standardPrincipal(ALEX),
          pools: Cl.list([Cl.contractPrincipal(ALEX, 'pool-a'), Cl.contractPrincipal(ALEX, 'pool-b')]),
          next: Cl.some(Cl.standardPrincipal(TESTNET)),
        }),
      );
      expect(decode(value).repr).to.equal(
        `(ok (tuple (next (some '${TESTNET})) (owner '${ALEX}) (pools (list '${ALEX}.pool-a '${ALEX}.pool-b))))`,
      );
    });
  });

  describe('input handling', () => {
    it('accepts hex with or without 0x and in upper case, and answers 0x lowercase hex', () => {
      const hex = serializeCV(Cl.bufferFromHex('abcd'));
      expect(decodeClarityValue(hex.toUpperCase()).hex).to.equal(`0x${hex}`);
      expect(decodeClarityValue(`0x${hex}`).hex).to.equal(`0x${hex}`);
    });

    it('rejects a truncated value', () => {
      expect(() => decodeClarityValue('0x0100')).to.throw(ClarityDecodeError, /truncated/);
    });

    it('rejects bytes left after the value', () => {
      expect(() => decodeClarityValue('0x030000')).to.throw(ClarityDecodeError, /left after/);
    });

    it('rejects an unknown type prefix', () => {
      expect(() => decodeClarityValue('0x0f')).to.throw(
        ClarityDecodeError,
        /unknown Clarity type prefix 0xf/,
      );
    });

    it('rejects text that is not hex', () => {
      expect(() => decodeClarityValue('0xzz')).to.throw(ClarityDecodeError, /not hex/);
    });
  });

  describe('memo table', () => {
    it('answers the same object for the same hex within one cache', () => {
      const cache = createReprCache();
      const hex = serializeCV(Cl.ok(Cl.bool(true)));
      expect(decodeClarityValue(hex, cache)).to.equal(decodeClarityValue(`0x${hex}`, cache));
    });

    it('encodes an address once per cache', () => {
      const cache = createReprCache();
      const hash = 'e685b016b3b6cd9ebf35f38e5ae29392e2acd51d';
      expect(c32Address(22, hash, cache)).to.equal(ALEX);
      expect(cache.addresses.size).to.equal(1);
      c32Address(22, hash, cache);
      expect(cache.addresses.size).to.equal(1);
    });

    it('shares an address memo given to several caches, as blocks in a row do', () => {
      const memo = new Map<string, string>();
      c32Address(22, 'e685b016b3b6cd9ebf35f38e5ae29392e2acd51d', createReprCache(memo));
      const next = createReprCache(memo);
      expect(next.addresses.get('22:e685b016b3b6cd9ebf35f38e5ae29392e2acd51d')).to.equal(ALEX);
      expect(next.values.size).to.equal(0);
    });

    it('holds at most ADDRESS_MEMO_LIMIT addresses, dropping the oldest first', () => {
      const memo = new Map<string, string>();
      for (let i = 0; i < ADDRESS_MEMO_LIMIT; i++) memo.set(`old:${i}`, 'x');
      expect(c32Address(22, 'e685b016b3b6cd9ebf35f38e5ae29392e2acd51d', createReprCache(memo))).to.equal(
        ALEX,
      );
      expect(memo.size).to.equal(ADDRESS_MEMO_LIMIT);
      expect(memo.has('old:0')).to.equal(false);
      expect(memo.has('old:1')).to.equal(true);
    });
  });
});

describe('decodeClarityValuesAt', () => {
  it('reads values that lie back to back, each with its own bytes, and says where the last ends', () => {
    const values = [
      Cl.contractPrincipal(ALEX, 'pool'),
      Cl.uint(5),
      Cl.list([Cl.none(), Cl.some(Cl.int(-2))]),
    ];
    const serialized = values.map((cv) => serializeCV(cv));
    const hex = `ff${serialized.join('')}ee`;
    const { values: read, end } = decodeClarityValuesAt(
      hex,
      Buffer.from(hex, 'hex'),
      1,
      3,
      createReprCache(),
    );
    expect(read).to.deep.equal(serialized.map((one) => decodeClarityValue(one)));
    expect(end).to.equal(hex.length / 2 - 1);
  });

  it('rejects a run that ends before its last value', () => {
    const hex = `${serializeCV(Cl.uint(1))}${serializeCV(Cl.uint(2)).slice(0, 10)}`;
    expect(() => decodeClarityValuesAt(hex, Buffer.from(hex, 'hex'), 0, 2, createReprCache())).to.throw(
      ClarityDecodeError,
      /truncated/,
    );
  });
});
