import type { ClarityValueRepr } from '../chain/clarity-value.js';
import type { NftValue } from '../hooks/definition.js';

/**
 * Whether an NFT filter's `value` names this token id: an integer N is the
 * id `(uint N)`, whose repr is `uN`; a string is the id's Clarity repr, exactly, or, when it starts
 * with `0x`, its serialization, with the hex digits compared case-insensitively.
 */
export function matchesNftValue(wanted: NftValue, id: ClarityValueRepr): boolean {
  if (typeof wanted === 'number') return id.repr === uintRepr(wanted);
  if (wanted === id.repr) return true;
  // `id.hex` is always lower case with its `0x`.
  return wanted.startsWith('0x') && wanted.toLowerCase() === id.hex;
}

/**
 * The string an NFT `value` is indexed under: the token id's repr or lower-case hex that it can
 * match. Every id it matches yields this key among its own (see `forEachTransactionKey`); other
 * ids may too (a buffer's repr is hex), so `matchesNftValue` still decides.
 */
export function nftValueKey(wanted: NftValue): string {
  if (typeof wanted === 'number') return uintRepr(wanted) ?? '';
  return wanted.startsWith('0x') ? wanted.toLowerCase() : wanted;
}

/** The `uN` repr of an integer filter value; undefined for a number that is no token id (never valid input). */
function uintRepr(n: number): string | undefined {
  // BigInt prints large integers in full where String would switch to exponent notation.
  return Number.isInteger(n) && n >= 0 ? `u${BigInt(n)}` : undefined;
}
