/** Fails to compile when a switch over a union misses a case; throws if an unchecked value reaches it anyway. */
export function assertNever(value: never): never {
  throw new Error(`unhandled case: ${JSON.stringify(value)}`);
}
