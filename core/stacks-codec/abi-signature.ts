import type { ClarityAbiType, ContractAbi } from '../chain/contract-abi.js';

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
