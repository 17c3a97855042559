import type { ClarityValueRepr } from '../chain/clarity-value.js';
import { encodeC32Address } from './c32-address.js';
import { asciiRepr, listRepr, tupleRepr, utf8Repr, type Decoded } from './clarity-text.js';

/**
 * Memo tables shared by the decodes of one block. Blocks repeat values (`(ok true)` results, the
 * same principals in every swap), and c32 encoding hashes twice per principal, so caching pays.
 * Values are kept per block; addresses may be kept across blocks (see AddressMemo).
 */
export type ReprCache = {
  values: Map<string, ClarityValueRepr>;
  addresses: AddressMemo;
};

/**
 * c32 addresses by `version:hash160`. Consecutive blocks name the same senders and contracts, so a
 * memo kept across blocks saves most encodings; it never holds more than ADDRESS_MEMO_LIMIT entries.
 */
export type AddressMemo = Map<string, string>;

/** Entries an address memo keeps (about 150 bytes each); past it the oldest goes. */
export const ADDRESS_MEMO_LIMIT = 50_000;

/** A fresh value memo for one block, over a fresh or a longer-lived address memo. */
export function createReprCache(addresses: AddressMemo = new Map()): ReprCache {
  return { values: new Map(), addresses };
}

/** Thrown when bytes are not a well-formed Clarity serialization. */
export class ClarityDecodeError extends Error {
  readonly code = 'CLARITY_DECODE';
  override name = 'ClarityDecodeError';
}

type Cursor = { hex: string; bytes: Buffer; pos: number; cache: ReprCache };

/**
 * Decodes one serialized Clarity value (hex, `0x` optional) into its canonical repr and inferred
 * type, the way Stacks tools print them: principals keep their `'`, tuples list their keys in
 * sorted order, lists take the type of their first element.
 */
export function decodeClarityValue(hex: string, cache: ReprCache = createReprCache()): ClarityValueRepr {
  const bare = stripHex(hex);
  const key = `0x${bare}`;
  const known = cache.values.get(key);
  if (known) return known;
  const cursor: Cursor = { hex: bare, bytes: Buffer.from(bare, 'hex'), pos: 0, cache };
  if (cursor.bytes.length * 2 !== bare.length) throw new ClarityDecodeError(`not hex: ${hex.slice(0, 40)}`);
  const { repr, type } = readValue(cursor, 0);
  if (cursor.pos !== cursor.bytes.length) {
    throw new ClarityDecodeError(`${cursor.bytes.length - cursor.pos} bytes left after the value`);
  }
  const value = { hex: key, repr, type };
  cache.values.set(key, value);
  return value;
}

/** The c32 address of a version byte and hash160 (hex), memoized in `cache`. */
export function c32Address(version: number, hash160: string, cache: ReprCache): string {
  const key = `${version}:${hash160}`;
  let address = cache.addresses.get(key);
  if (address === undefined) {
    address = encodeC32Address(version, hash160);
    if (cache.addresses.size >= ADDRESS_MEMO_LIMIT) {
      cache.addresses.delete(cache.addresses.keys().next().value as string);
    }
    cache.addresses.set(key, address);
  }
  return address;
}

/**
 * Decodes `count` serialized values that lie back to back from byte `offset` of `bytes` (a contract
 * call's arguments), `hex` being the lowercase hex of `bytes`: each value's own bytes as hex, its
 * repr and type, and the offset just past the last value.
 */
export function decodeClarityValuesAt(
  hex: string,
  bytes: Buffer,
  offset: number,
  count: number,
  cache: ReprCache,
): { values: ClarityValueRepr[]; end: number } {
  const cursor: Cursor = { hex, bytes, pos: offset, cache };
  const values: ClarityValueRepr[] = [];
  for (let i = 0; i < count; i++) {
    const start = cursor.pos;
    const { repr, type } = readValue(cursor, 0);
    values.push({ hex: `0x${hex.slice(start * 2, cursor.pos * 2)}`, repr, type });
  }
  return { values, end: cursor.pos };
}

function stripHex(hex: string): string {
  const bare = hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex;
  return bare.toLowerCase();
}

// Clarity limits type nesting to 32; the decoder allows twice that, a bound that keeps recursion
// safe on malformed bytes without refusing anything a node could have produced.
const MAX_DEPTH = 64;

function need(c: Cursor, length: number): void {
  if (c.pos + length > c.bytes.length) {
    throw new ClarityDecodeError(`value truncated at byte ${c.pos} (needs ${length} more)`);
  }
}

function readU32(c: Cursor): number {
  need(c, 4);
  const n = c.bytes.readUInt32BE(c.pos);
  c.pos += 4;
  return n;
}

function readValue(c: Cursor, depth: number): Decoded {
  if (depth > MAX_DEPTH) throw new ClarityDecodeError('value nested too deeply');
  need(c, 1);
  const prefix = c.bytes[c.pos++];
  switch (prefix) {
    case 0x00:
      return { repr: readInt128(c, true), type: 'int' };
    case 0x01:
      return { repr: `u${readInt128(c, false)}`, type: 'uint' };
    case 0x02: {
      const length = readU32(c);
      need(c, length);
      const repr = `0x${c.hex.slice(c.pos * 2, (c.pos + length) * 2)}`;
      c.pos += length;
      return { repr, type: `(buff ${length})` };
    }
    case 0x03:
      return { repr: 'true', type: 'bool' };
    case 0x04:
      return { repr: 'false', type: 'bool' };
    case 0x05:
      return { repr: `'${readAddress(c)}`, type: 'principal' };
    case 0x06: {
      const address = readAddress(c);
      return { repr: `'${address}.${readName(c)}`, type: 'principal' };
    }
    case 0x07:
    case 0x08: {
      const inner = readValue(c, depth + 1);
      return prefix === 0x07
        ? { repr: `(ok ${inner.repr})`, type: `(response ${inner.type} UnknownType)` }
        : { repr: `(err ${inner.repr})`, type: `(response UnknownType ${inner.type})` };
    }
    case 0x09:
      return { repr: 'none', type: '(optional UnknownType)' };
    case 0x0a: {
      const inner = readValue(c, depth + 1);
      return { repr: `(some ${inner.repr})`, type: `(optional ${inner.type})` };
    }
    case 0x0b:
      return readList(c, depth);
    case 0x0c:
      return readTuple(c, depth);
    case 0x0d:
      return readAscii(c);
    case 0x0e:
      return readUtf8(c);
    default:
      throw new ClarityDecodeError(
        `unknown Clarity type prefix 0x${prefix.toString(16)} at byte ${c.pos - 1}`,
      );
  }
}

function readInt128(c: Cursor, signed: boolean): string {
  need(c, 16);
  const { bytes, pos } = c;
  c.pos += 16;
  // Most amounts fit in 48 bits: read them as a Number and skip BigInt parsing.
  let small = true;
  for (let i = 0; i < 10; i++) {
    if (bytes[pos + i] !== 0) {
      small = false;
      break;
    }
  }
  if (small) return String(bytes.readUIntBE(pos + 10, 6));
  const unsigned = BigInt(`0x${c.hex.slice(pos * 2, (pos + 16) * 2)}`);
  return (signed ? BigInt.asIntN(128, unsigned) : unsigned).toString();
}

function readAddress(c: Cursor): string {
  need(c, 21);
  const version = c.bytes[c.pos];
  const hash = c.hex.slice((c.pos + 1) * 2, (c.pos + 21) * 2);
  c.pos += 21;
  return c32Address(version, hash, c.cache);
}

// Contract names in principals and tuple keys: at most 128 bytes of UTF-8, as the library reads them.
function readName(c: Cursor): string {
  need(c, 1);
  const length = c.bytes[c.pos++];
  if (length > 128) throw new ClarityDecodeError('name longer than 128 bytes');
  need(c, length);
  const name = c.bytes.toString('utf8', c.pos, c.pos + length);
  c.pos += length;
  return name;
}

function readList(c: Cursor, depth: number): Decoded {
  const length = readU32(c);
  const items: Decoded[] = [];
  for (let i = 0; i < length; i++) items.push(readValue(c, depth + 1));
  return listRepr(items);
}

/** A Clarity name, which tuple keys must be (the library refuses a tuple with any other key). */
const CLARITY_NAME = /^[a-zA-Z]([a-zA-Z0-9]|[-_!?+<>=/*])*$|^[-+=/*]$|^[<>]=?$/;

function readTuple(c: Cursor, depth: number): Decoded {
  const length = readU32(c);
  const entries: { name: string; value: Decoded }[] = [];
  for (let i = 0; i < length; i++) {
    const name = readName(c);
    if (name.length >= 128 || !CLARITY_NAME.test(name)) {
      throw new ClarityDecodeError(`tuple key ${JSON.stringify(name)} is not a Clarity name`);
    }
    entries.push({ name, value: readValue(c, depth + 1) });
  }
  return tupleRepr(entries);
}

function readAscii(c: Cursor): Decoded {
  const length = readU32(c);
  need(c, length);
  const text = c.bytes.toString('latin1', c.pos, c.pos + length);
  c.pos += length;
  return asciiRepr(text);
}

function readUtf8(c: Cursor): Decoded {
  const length = readU32(c);
  need(c, length);
  const text = c.bytes.toString('utf8', c.pos, c.pos + length);
  c.pos += length;
  return utf8Repr(text);
}
