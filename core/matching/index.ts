/** Filter matching: the reference matcher, and the hook index that makes it cheap for many hooks. */
export { matchTransaction, matchesAnyFilter } from './match-transaction.js';
export { isEventLevel, matchEvent, type EventLevelFilter } from './match-event.js';
export { matchesNftValue } from './nft-value.js';
export { balanceAccount } from './balance-account.js';
export { HookIndex, type BlockMatches, type MatchVisitor } from './hook-index.js';
export { matchBlockReference, type MatchableHook } from './reference-matcher.js';
