/** The randomness source for identifiers and secrets; injected so the core stays deterministic under test. */
export interface IdSource {
  /** A random RFC 4122 version 4 uuid. */
  uuid(): string;
  /** `bytes` random bytes as lowercase hex. */
  randomHex(bytes: number): string;
}

export const ID_SOURCE = Symbol.for('stackhooks.IdSource');
