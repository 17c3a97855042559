import { hash } from 'node:crypto';

// c32check addresses (`SP…`, `SM…`, `ST…`, `SN…`), as c32check's `c32address` makes them but without
// its per-nibble string arithmetic and its pure-JS sha256, which made encoding the largest single
// cost of normalizing a busy block. Property-tested against the library.

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODES = Buffer.from(ALPHABET, 'latin1');
const ZERO = CODES[0];
const HASH160 = /^[0-9a-fA-F]{40}$/;

/** The c32check address of an address version (0–31) and a hash160 given as 40 hex digits. */
export function encodeC32Address(version: number, hash160: string): string {
  if (!Number.isInteger(version) || version < 0 || version >= 32) {
    throw new Error(`address version ${version} is not between 0 and 31`);
  }
  if (!HASH160.test(hash160)) throw new Error('not a hash160 hex string');
  // The checksum covers the version byte and the hash; the encoded data is the hash and the checksum.
  const versioned = Buffer.alloc(21);
  versioned[0] = version;
  versioned.write(hash160, 1, 'hex');
  const checksum = hash('sha256', hash('sha256', versioned, 'buffer'), 'buffer');
  const data = Buffer.alloc(24);
  versioned.copy(data, 0, 1);
  checksum.copy(data, 20, 0, 4);
  return `S${ALPHABET[version]}${c32Encode(data)}`;
}

/**
 * The bytes as one big-endian number in base 32, without leading zero digits, then one `0` for
 * each leading zero byte: c32check's rule, which keeps leading zero bytes visible.
 */
function c32Encode(data: Buffer): string {
  // Five bits a digit, from the least significant end: at most ceil(8 * length / 5) digits.
  const digits = Buffer.alloc(Math.ceil((data.length * 8) / 5));
  let at = digits.length;
  let carry = 0;
  let bits = 0;
  for (let i = data.length - 1; i >= 0; i--) {
    carry |= data[i] << bits;
    bits += 8;
    while (bits >= 5) {
      digits[--at] = CODES[carry & 31];
      carry >>>= 5;
      bits -= 5;
    }
  }
  if (bits > 0) digits[--at] = CODES[carry & 31];
  while (at < digits.length && digits[at] === ZERO) at++;
  let zeroBytes = 0;
  while (zeroBytes < data.length && data[zeroBytes] === 0) zeroBytes++;
  return '0'.repeat(zeroBytes) + digits.toString('latin1', at);
}
