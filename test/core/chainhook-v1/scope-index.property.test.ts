import { expect } from 'chai';
import fc from 'fast-check';
import { arbitraryBlock } from '../../../apps/library/testing.js';
import type { NormalizedBlock } from '../../../core/chain/block.js';
import type { StacksScope, TokenAction } from '../../../core/chainhook-v1/predicate.js';
import { ScopeIndex } from '../../../core/chainhook-v1/scope-index.js';
import { matchedIndexes, scopeMatcher } from '../../../core/chainhook-v1/scope-matcher.js';

const tokenActions = fc.subarray<TokenAction>(['mint', 'transfer', 'burn'], { minLength: 1 });

/** Scopes drawn from what the block carries (so that many match), and some that name nothing in it. */
function scopesFor(block: NormalizedBlock, actions: TokenAction[], pick: number): StacksScope[] {
  const scopes: StacksScope[] = [
    { scope: 'stx_event', actions: ['transfer', 'lock'] },
    { scope: 'block_height', higher_than: pick % 7 },
    { scope: 'contract_deployment', deployer: '*' },
    { scope: 'print_event', contract_identifier: '*', contains: 'u' },
    { scope: 'txid', equals: `0x${'ab'.repeat(32)}` },
    { scope: 'ft_event', asset_identifier: 'SP000000000000000000002Q6VF78.none::none', actions },
    { scope: 'contract_call', contract_identifier: 'SP000000000000000000002Q6VF78.none', method: 'x' },
  ];
  for (const tx of block.transactions) {
    scopes.push({ scope: 'txid', equals: tx.transaction_identifier.hash.toLowerCase() });
    if (tx.payload.type === 'contract_call')
      scopes.push({
        scope: 'contract_call',
        contract_identifier: tx.payload.contract_identifier,
        method: pick % 2 === 0 ? tx.payload.function_name : 'other',
      });
    for (const event of tx.events) {
      if (event.type === 'contract_log')
        scopes.push({ scope: 'print_event', contract_identifier: event.contract_identifier, contains: '*' });
      else if ('asset_identifier' in event)
        scopes.push({
          scope: event.type.startsWith('ft_') ? 'ft_event' : 'nft_event',
          asset_identifier: event.asset_identifier,
          actions,
        });
    }
  }
  return scopes;
}

/** What the index takes from the block: each scope's uuid with the transaction indexes it took. */
function indexed(index: ScopeIndex, block: NormalizedBlock): Map<string, number[]> {
  const taken = new Map<string, number[]>();
  index.forEachMatch(block, (uuid, hit) => taken.set(uuid, matchedIndexes(block, hit)));
  return taken;
}

/** What running every scope on the block takes. */
function everyScope(scopes: Map<string, StacksScope>, block: NormalizedBlock): Map<string, number[]> {
  const taken = new Map<string, number[]>();
  for (const [uuid, scope] of scopes) {
    const hit = scopeMatcher(scope)(block);
    if (hit) taken.set(uuid, matchedIndexes(block, hit));
  }
  return taken;
}

describe('ScopeIndex (properties)', () => {
  it('takes from a block exactly what running every scope on it takes', () => {
    fc.assert(
      fc.property(arbitraryBlock(), tokenActions, fc.nat(), (block, actions, pick) => {
        const scopes = new Map(scopesFor(block, actions, pick).map((scope, i) => [`p${i}`, scope]));
        const index = new ScopeIndex();
        for (const [uuid, scope] of scopes) index.set(uuid, scope);
        expect(indexed(index, block)).to.deep.equal(everyScope(scopes, block));
      }),
    );
  });

  it('forgets a deleted scope and takes a replaced one by its new scope only', () => {
    fc.assert(
      fc.property(arbitraryBlock(), tokenActions, fc.nat(), (block, actions, pick) => {
        const list = scopesFor(block, actions, pick);
        const scopes = new Map(list.map((scope, i) => [`p${i}`, scope]));
        const index = new ScopeIndex();
        for (const [uuid, scope] of scopes) index.set(uuid, scope);
        // Every other scope is deleted; the rest take the next one's scope (a replace moves its key).
        for (let i = 0; i < list.length; i++) {
          const uuid = `p${i}`;
          if (i % 2 === 0) {
            index.delete(uuid);
            scopes.delete(uuid);
          } else {
            const next = list[(i + 1) % list.length]!;
            index.set(uuid, next);
            scopes.set(uuid, next);
          }
        }
        expect(index.size).to.equal(scopes.size);
        expect(indexed(index, block)).to.deep.equal(everyScope(scopes, block));
      }),
    );
  });
});
