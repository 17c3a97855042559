/** The time source; injected so the core stays deterministic under test. */
export interface Clock {
  /** Milliseconds since the unix epoch. */
  now(): number;
}

export const CLOCK = Symbol.for('stackhooks.Clock');
