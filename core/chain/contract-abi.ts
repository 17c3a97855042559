/**
 * A contract's ABI as the node reports it on deploy (`contract_abi` / `contract_interface`):
 * Clarity's contract interface JSON.
 */
export type ContractAbi = {
  functions: ContractAbiFunction[];
  variables?: { name: string; type: ClarityAbiType; access: 'constant' | 'variable' }[];
  maps?: { name: string; key: ClarityAbiType; value: ClarityAbiType }[];
  fungible_tokens?: { name: string }[];
  non_fungible_tokens?: { name: string; type: ClarityAbiType }[];
  epoch?: string;
  clarity_version?: string;
};

/** One function of a contract ABI. */
export type ContractAbiFunction = {
  name: string;
  access: 'private' | 'public' | 'read_only';
  args: { name: string; type: ClarityAbiType }[];
  outputs: { type: ClarityAbiType };
};

/** A Clarity type in the ABI's JSON encoding. */
export type ClarityAbiType =
  | 'uint128'
  | 'int128'
  | 'bool'
  | 'principal'
  | 'trait_reference'
  | 'none'
  | { buffer: { length: number } }
  | { 'string-ascii': { length: number } }
  | { 'string-utf8': { length: number } }
  | { optional: ClarityAbiType }
  | { response: { ok: ClarityAbiType; error: ClarityAbiType } }
  | { list: { type: ClarityAbiType; length: number } }
  | { tuple: { name: string; type: ClarityAbiType }[] };

/** A contract's ABI by its contract identifier, or undefined when it is not known. */
export type AbiLookup = (contractId: string) => ContractAbi | undefined;
