import { ClarityType, deserializeCV, type ClarityValue } from '@stacks/transactions';

/** A Clarity value as Chainhook 1.x's `decode_clarity_values` wrote it in JSON. */
export type ClarityJson = null | boolean | number | string | ClarityJson[] | { [key: string]: ClarityJson };

/**
 * A serialized Clarity value (`0x` hex) as 1.x's `decode_clarity_values` showed it: integers as
 * numbers (as decimal strings past 2^53, which a JSON number would round in JavaScript), booleans,
 * principals without their `'`, buffers as `0x` hex, strings as text, `none` as null and `some` as
 * its value, a response as `{"result": {"success", "value"}}`, tuples as objects, lists as arrays.
 * Bytes that are no Clarity value come back as the hex given, as 1.x left them.
 */
export function clarityJson(hex: string): ClarityJson {
  let value: ClarityValue;
  try {
    value = deserializeCV(hex.startsWith('0x') ? hex.slice(2) : hex);
  } catch {
    return hex;
  }
  return toJson(value);
}

function toJson(value: ClarityValue): ClarityJson {
  switch (value.type) {
    case ClarityType.Int:
    case ClarityType.UInt: {
      const n = BigInt(value.value);
      return n <= BigInt(Number.MAX_SAFE_INTEGER) && n >= BigInt(Number.MIN_SAFE_INTEGER)
        ? Number(n)
        : n.toString();
    }
    case ClarityType.BoolTrue:
      return true;
    case ClarityType.BoolFalse:
      return false;
    case ClarityType.PrincipalStandard:
    case ClarityType.PrincipalContract:
      return value.value;
    case ClarityType.Buffer:
      return `0x${value.value}`;
    case ClarityType.StringASCII:
    case ClarityType.StringUTF8:
      return value.value;
    case ClarityType.OptionalNone:
      return null;
    case ClarityType.OptionalSome:
      return toJson(value.value);
    case ClarityType.ResponseOk:
    case ClarityType.ResponseErr:
      return { result: { success: value.type === ClarityType.ResponseOk, value: toJson(value.value) } };
    case ClarityType.Tuple: {
      const object: { [key: string]: ClarityJson } = {};
      for (const [key, entry] of Object.entries(value.value)) object[key] = toJson(entry);
      return object;
    }
    case ClarityType.List:
      return value.value.map(toJson);
  }
}
