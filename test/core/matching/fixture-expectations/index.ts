// Every fixture expectation, by recorded file.
import { EPOCH_3_TRANSITION, MAINNET_GENESIS, MAINNET_REORG } from './chain-and-nakamoto.js';
import { OUT_OF_ORDER_MICROBLOCK } from './out-of-order-microblock.js';
import { POISON_MICROBLOCK } from './poisonmicroblock.js';
import type { FixtureExpectation } from './types.js';

export type { FixtureExpectation, FixtureHook } from './types.js';

/** Hooks of all 18 filter types over five recorded files. */
export const FIXTURE_EXPECTATIONS: readonly FixtureExpectation[] = [
  POISON_MICROBLOCK,
  OUT_OF_ORDER_MICROBLOCK,
  MAINNET_REORG,
  MAINNET_GENESIS,
  EPOCH_3_TRANSITION,
];
