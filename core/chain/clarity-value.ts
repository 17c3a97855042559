/** A Clarity value as payloads show it: `0x` serialization, canonical repr and inferred type name. */
export type ClarityValueRepr = { hex: string; repr: string; type: string };
