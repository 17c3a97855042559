/**
 * stackhooks as a property-test harness for filter semantics (`import … from 'stackhooks/testing'`):
 * fast-check arbitraries for principals, assets, events, transactions, blocks, filters and hooks,
 * all drawing from one small pool (HARNESS_POOL) so that generated filters often match generated
 * blocks, plus the matchers to test against: the reference `matchTransaction`, the plain
 * `matchBlockReference` loop and the `HookIndex` the service uses. Needs `fast-check` installed.
 * See docs/testing-harness.md.
 */
export { HARNESS_POOL, reprOf } from './testing/pool.js';
export {
  arbitraryAmount,
  arbitraryAssetIdentifier,
  arbitraryContractIdentifier,
  arbitraryHex,
  arbitraryNftId,
  arbitraryPrincipal,
  arbitraryStandardPrincipal,
} from './testing/identifiers.js';
export { arbitraryTransactionEvent, type TransactionEventOptions } from './testing/transaction-event.js';
export { arbitraryTransaction, type TransactionOptions } from './testing/transaction.js';
export { arbitraryBlock, type BlockOptions } from './testing/block.js';
export {
  arbitraryEventFilter,
  arbitraryNftFilterValue,
  type EventFilterOptions,
} from './testing/event-filter.js';
export { arbitraryHook, arbitraryHookSet, type ArbitraryHook, type HookOptions } from './testing/hook.js';

export {
  HookIndex,
  matchBlockReference,
  matchTransaction,
  matchesAnyFilter,
  type BlockMatches,
  type MatchableHook,
} from '../../core/matching/index.js';
export type { NormalizedBlock, NormalizedTransaction } from '../../core/chain/block.js';
export type { TransactionEvent } from '../../core/chain/transaction-event.js';
export type { EventFilter, EventFilterType } from '../../core/hooks/definition.js';
