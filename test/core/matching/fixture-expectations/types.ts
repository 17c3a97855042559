// The shape of the fixture expectations: hooks of one filter and the txids each must match.
import type { EventFilter } from '../../../../core/hooks/definition.js';

/** A hook of one filter and the transactions it must match in the file, and nothing else. */
export type FixtureHook = { behaviour: string; filter: EventFilter; txids: readonly string[] };

/** A recorded file, the network to normalize it for, and its hooks. */
export type FixtureExpectation = {
  file: string;
  network: 'mainnet' | 'testnet';
  hooks: readonly FixtureHook[];
};
