import type { NormalizedBlock, NormalizedTransaction } from '../chain/block.js';
import type { TransactionEvent } from '../chain/transaction-event.js';
import type { BlockHeightRule, StacksScope, StxAction, TokenAction } from './predicate.js';
import { printPatternFinder } from './print-pattern.js';
import { implementsTokenTrait } from './token-traits.js';

/**
 * What a predicate takes from a block: the transactions it matched (for `block_height`, all of
 * them, since that scope takes the whole block), or undefined when the block does not occur.
 */
export type ScopeMatch = { transactions: NormalizedTransaction[] } | undefined;

/** The indexes in the block of the transactions a match took, ascending. */
export function matchedIndexes(block: NormalizedBlock, match: NonNullable<ScopeMatch>): number[] {
  const { transactions } = match;
  if (transactions.length === block.transactions.length) return transactions.map((_, i) => i);
  const wanted = new Set(transactions);
  const indexes: number[] = [];
  block.transactions.forEach((tx, i) => wanted.has(tx) && indexes.push(i));
  return indexes;
}

/** A compiled `if_this`: ask it of each block. */
export type ScopeMatcher = (block: NormalizedBlock) => ScopeMatch;

/**
 * Compile a scope with 1.x's semantics: a transaction occurs when it satisfies the scope; a block
 * occurs when one of its transactions does (or, for `block_height`, when its height does). Event
 * scopes see committed events only (an aborted transaction's events never happened); kind scopes
 * (`contract_call`, `contract_deployment`, `txid`) match whatever the transaction's result, as 1.x did.
 * `signer_message` looks at signer messages, never at blocks: it matches no block.
 */
export function scopeMatcher(scope: StacksScope): ScopeMatcher {
  if (scope.scope === 'block_height') {
    const holds = heightRule(scope);
    return (block) =>
      holds(block.block_identifier.index) ? { transactions: block.transactions } : undefined;
  }
  if (scope.scope === 'signer_message') return () => undefined;
  const occurs = transactionTest(scope);
  return (block) => {
    const transactions = block.transactions.filter(occurs);
    return transactions.length > 0 ? { transactions } : undefined;
  };
}

type TransactionScope = Exclude<StacksScope, { scope: 'block_height' } | { scope: 'signer_message' }>;

function transactionTest(scope: TransactionScope): (tx: NormalizedTransaction) => boolean {
  switch (scope.scope) {
    case 'txid':
      return (tx) => tx.transaction_identifier.hash.toLowerCase() === scope.equals;
    case 'contract_call':
      return ({ payload }) =>
        payload.type === 'contract_call' &&
        payload.contract_identifier === scope.contract_identifier &&
        payload.function_name === scope.method;
    case 'contract_deployment': {
      if ('deployer' in scope) {
        // 1.x compared the deployed contract's identifier to the deployer as a prefix.
        const prefix = scope.deployer;
        return ({ payload }) =>
          payload.type === 'contract_deploy' &&
          (prefix === '*' || payload.contract_identifier.startsWith(prefix));
      }
      const trait = scope.implement_trait;
      return ({ payload }) =>
        payload.type === 'contract_deploy' &&
        (trait === '*' || (payload.abi !== null && implementsTokenTrait(payload.abi, trait)));
    }
    case 'ft_event':
    case 'nft_event':
    case 'stx_event':
    case 'print_event': {
      const test = eventTest(scope);
      return (tx) => tx.events.some((event) => event.committed && test(event));
    }
  }
}

function eventTest(scope: Extract<TransactionScope, { actions: unknown } | { scope: 'print_event' }>) {
  switch (scope.scope) {
    case 'ft_event':
    case 'nft_event': {
      const kinds = new Set(
        scope.actions.map((action: TokenAction) => `${scope.scope.slice(0, -6)}_${action}`),
      );
      return (event: TransactionEvent) =>
        kinds.has(event.type) &&
        'asset_identifier' in event &&
        event.asset_identifier === scope.asset_identifier;
    }
    case 'stx_event': {
      const kinds = new Set(scope.actions.map((action: StxAction) => `stx_${action}`));
      return (event: TransactionEvent) => kinds.has(event.type);
    }
    case 'print_event': {
      const contract = scope.contract_identifier;
      const text = printTextTest(scope);
      return (event: TransactionEvent) =>
        event.type === 'contract_log' &&
        (contract === '*' || event.contract_identifier === contract) &&
        text(event.value.repr);
    }
  }
}

function printTextTest(scope: Extract<StacksScope, { scope: 'print_event' }>): (repr: string) => boolean {
  if ('contains' in scope) {
    const wanted = scope.contains;
    return wanted === '*' ? () => true : (repr) => repr.includes(wanted);
  }
  return printPatternFinder(scope.matches_regex);
}

/** Whether a height satisfies a `block_height` rule (`between` includes both ends). */
export function heightRule(rule: BlockHeightRule): (height: number) => boolean {
  if ('equals' in rule) return (height) => height === rule.equals;
  if ('higher_than' in rule) return (height) => height > rule.higher_than;
  if ('lower_than' in rule) return (height) => height < rule.lower_than;
  const [low, high] = rule.between;
  return (height) => height >= low && height <= high;
}
