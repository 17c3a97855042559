// The small vocabulary the arbitraries share, so that generated filters often name what generated
// transactions do. With fresh random principals every time, almost no filter would ever match.
import {
  Cl,
  addressFromVersionHash,
  addressToString,
  serializeCV,
  type ClarityValue,
} from '@stacks/transactions';
import { decodeClarityValue } from '../../../core/stacks-codec/clarity-repr.js';
import { type ClarityValueRepr } from '../../../core/chain/clarity-value.js';

/** A mainnet single-sig address (`SP…`) from a fixed byte, so the pool is the same in every run. */
function address(byte: number): string {
  // 22 is the mainnet single-sig version.
  return addressToString(addressFromVersionHash(22, byte.toString(16).padStart(2, '0').repeat(20)));
}

/** The Clarity repr of a value, computed by the project's own decoder so that it matches normalized blocks. */
export function reprOf(value: ClarityValue): ClarityValueRepr {
  return decodeClarityValue(`0x${serializeCV(value)}`);
}

const accounts = [0x11, 0x22, 0x33, 0x44].map(address);
const contractNames = ['token-a', 'token-b', 'nft-c', 'dex'] as const;
const contracts = contractNames.map((name, i) => `${accounts[i % 2]}.${name}`);

/**
 * The shared pool: four standard principals, four contracts (deployed by the first two
 * principals), three fungible and two non-fungible assets, four function names and five NFT ids.
 */
export const HARNESS_POOL = Object.freeze({
  /** Standard principals: transaction senders, and the usual senders and recipients of events. */
  accounts: Object.freeze(accounts),
  /** Contract names the pool's contracts use; a deploy by a pool account of one of them makes a pool contract. */
  contractNames: Object.freeze([...contractNames]),
  /** Contract principals (`<address>.<name>`). */
  contracts: Object.freeze(contracts),
  /** Fungible assets (`<contract>::<token>`). */
  ftAssets: Object.freeze([
    `${contracts[0]}::token-a`,
    `${contracts[1]}::token-b`,
    `${contracts[3]}::lp-token`,
  ]),
  /** Non-fungible assets. */
  nftAssets: Object.freeze([`${contracts[2]}::nft-c`, `${contracts[3]}::position`]),
  /** Function names contract calls use. */
  functionNames: Object.freeze(['transfer', 'swap', 'mint', 'stack-stx']),
  /** NFT token ids: `u1`, `u2`, `u300`, a string and a buffer. */
  tokenIds: Object.freeze(
    [Cl.uint(1), Cl.uint(2), Cl.uint(300), Cl.stringAscii('name'), Cl.buffer(Buffer.from('0102', 'hex'))].map(
      reprOf,
    ),
  ),
});
