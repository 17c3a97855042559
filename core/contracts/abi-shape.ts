import type { ClarityAbiType, ContractAbi } from '../chain/contract-abi.js';

const PRIMITIVES = new Set(['uint128', 'int128', 'bool', 'principal', 'trait_reference', 'none']);

/**
 * `value` as a contract ABI when it is one, else undefined: every function has a name and
 * arguments whose names are strings and whose types are Clarity ABI types. An ABI from outside (a
 * node's RPC) is checked so, because naming a call's arguments trusts it.
 */
export function readContractAbi(value: unknown): ContractAbi | undefined {
  if (!isObject(value) || !Array.isArray(value.functions)) return undefined;
  for (const fn of value.functions) {
    if (!isObject(fn) || typeof fn.name !== 'string' || !Array.isArray(fn.args)) return undefined;
    for (const arg of fn.args) {
      if (!isObject(arg) || typeof arg.name !== 'string' || !isAbiType(arg.type, 0)) return undefined;
    }
  }
  return value as ContractAbi;
}

// Clarity nests types at most 32 deep; twice that bounds the recursion on a hostile answer.
const MAX_DEPTH = 64;

/** Whether `type` is a Clarity type in the ABI's JSON encoding. */
export function isAbiType(type: unknown, depth = 0): type is ClarityAbiType {
  if (depth > MAX_DEPTH) return false;
  if (typeof type === 'string') return PRIMITIVES.has(type);
  if (!isObject(type)) return false;
  const keys = Object.keys(type);
  if (keys.length !== 1) return false;
  const inner = type[keys[0]];
  switch (keys[0]) {
    case 'buffer':
    case 'string-ascii':
    case 'string-utf8':
      return isObject(inner) && isLength(inner.length);
    case 'optional':
      return isAbiType(inner, depth + 1);
    case 'response':
      return isObject(inner) && isAbiType(inner.ok, depth + 1) && isAbiType(inner.error, depth + 1);
    case 'list':
      return isObject(inner) && isLength(inner.length) && isAbiType(inner.type, depth + 1);
    case 'tuple':
      return (
        Array.isArray(inner) &&
        inner.every((f) => isObject(f) && typeof f.name === 'string' && isAbiType(f.type, depth + 1))
      );
    default:
      return false;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isLength(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}
