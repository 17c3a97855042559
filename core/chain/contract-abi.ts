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

/** The Clarity type signature of an ABI type, as payloads print it: `uint`, `(buff 20)`, `(list 5 principal)`. */
export function abiTypeName(type: ClarityAbiType): string {
  if (typeof type === 'string') {
    if (type === 'uint128') return 'uint';
    if (type === 'int128') return 'int';
    return type;
  }
  if ('buffer' in type) return `(buff ${type.buffer.length})`;
  if ('string-ascii' in type) return `(string-ascii ${type['string-ascii'].length})`;
  if ('string-utf8' in type) return `(string-utf8 ${type['string-utf8'].length})`;
  if ('optional' in type) return `(optional ${abiTypeName(type.optional)})`;
  if ('response' in type)
    return `(response ${abiTypeName(type.response.ok)} ${abiTypeName(type.response.error)})`;
  if ('list' in type) return `(list ${type.list.length} ${abiTypeName(type.list.type)})`;
  if ('tuple' in type)
    return `(tuple${type.tuple.map((f) => ` (${f.name} ${abiTypeName(f.type)})`).join('')})`;
  throw new Error(`unknown ABI type ${JSON.stringify(type)}`);
}

/**
 * The names and type signatures of a function's arguments, or undefined when the ABI has no such
 * function or its arity differs from the call's (then the caller falls back to inferred types).
 */
export function functionArgTypes(
  abi: ContractAbi,
  functionName: string,
  argCount: number,
): { name: string; type: string }[] | undefined {
  const fn = abi.functions?.find((f) => f.name === functionName);
  if (!fn || fn.args.length !== argCount) return undefined;
  return fn.args.map((arg) => ({ name: arg.name, type: abiTypeName(arg.type) }));
}
