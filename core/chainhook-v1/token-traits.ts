import type { ClarityAbiType, ContractAbi } from '../chain/contract-abi.js';

type TraitFunction = { name: string; args: ClarityAbiType[] };

const PRINCIPAL = 'principal';
const UINT = 'uint128';

// The functions of the SIP-009 (NFT) and SIP-010 (FT) traits with their argument types. A contract
// implements a trait when it defines each of these functions, public or read-only, taking exactly
// these arguments: the test Clarity's `impl-trait` applies to arguments. Outputs are not compared:
// the ABI writes a response's types as the contract's code infers them, which can be narrower than
// the trait's (a `(response bool uint)` whose error branch is never taken shows as `none`).
const SIP09: readonly TraitFunction[] = [
  { name: 'get-last-token-id', args: [] },
  { name: 'get-token-uri', args: [UINT] },
  { name: 'get-owner', args: [UINT] },
  { name: 'transfer', args: [UINT, PRINCIPAL, PRINCIPAL] },
];
const SIP10: readonly TraitFunction[] = [
  { name: 'transfer', args: [UINT, PRINCIPAL, PRINCIPAL, { optional: { buffer: { length: 34 } } }] },
  { name: 'get-name', args: [] },
  { name: 'get-symbol', args: [] },
  { name: 'get-decimals', args: [] },
  { name: 'get-balance', args: [PRINCIPAL] },
  { name: 'get-total-supply', args: [] },
  { name: 'get-token-uri', args: [] },
];

/** Whether a contract's ABI defines every function of SIP-009 (`sip09`) or SIP-010 (`sip10`) with the trait's arguments. */
export function implementsTokenTrait(abi: ContractAbi, trait: 'sip09' | 'sip10'): boolean {
  const wanted = trait === 'sip09' ? SIP09 : SIP10;
  return wanted.every((fn) =>
    abi.functions.some(
      (own) =>
        own.name === fn.name &&
        own.access !== 'private' &&
        own.args.length === fn.args.length &&
        own.args.every((arg, i) => sameType(arg.type, fn.args[i]!)),
    ),
  );
}

function sameType(a: ClarityAbiType, b: ClarityAbiType): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
