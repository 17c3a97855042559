import { expect } from 'chai';
import fc from 'fast-check';
import { arbitraryBlock } from '../../../apps/library/testing.js';
import type { NormalizedBlock } from '../../../core/chain/block.js';
import type { StacksScope, StxAction, TokenAction } from '../../../core/chainhook-v1/predicate.js';
import { scopeMatcher } from '../../../core/chainhook-v1/scope-matcher.js';

function taken(scope: StacksScope, block: NormalizedBlock): number[] {
  return (scopeMatcher(scope)(block)?.transactions ?? []).map((tx) => block.transactions.indexOf(tx));
}

function union(a: number[], b: number[]): number[] {
  return [...new Set([...a, ...b])].sort((x, y) => x - y);
}

const stxActions = fc.subarray<StxAction>(['mint', 'transfer', 'lock', 'burn'], { minLength: 1 });
const tokenActions = fc.subarray<TokenAction>(['mint', 'transfer', 'burn'], { minLength: 1 });

/** RE2 syntax for the literal text. */
function literal(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, (c) => `\\${c}`);
}

describe('scopeMatcher (properties)', () => {
  it('stx_event with actions A and B takes exactly the union of what A and B take', () => {
    fc.assert(
      fc.property(arbitraryBlock(), stxActions, stxActions, (block, a, b) => {
        const both = [...new Set([...a, ...b])];
        expect(taken({ scope: 'stx_event', actions: both }, block)).to.deep.equal(
          union(
            taken({ scope: 'stx_event', actions: a }, block),
            taken({ scope: 'stx_event', actions: b }, block),
          ),
        );
      }),
    );
  });

  it('ft_event takes a transaction only for a committed event of its asset', () => {
    fc.assert(
      fc.property(arbitraryBlock(), tokenActions, (block, actions) => {
        for (const tx of block.transactions) {
          const asset = tx.events.find((e) => e.type.startsWith('ft_') && 'asset_identifier' in e);
          if (!asset || !('asset_identifier' in asset)) continue;
          const scope: StacksScope = { scope: 'ft_event', asset_identifier: asset.asset_identifier, actions };
          const expected = tx.events.some(
            (e) =>
              e.committed &&
              'asset_identifier' in e &&
              e.asset_identifier === asset.asset_identifier &&
              actions.some((action) => e.type === `ft_${action}`),
          );
          expect(taken(scope, block).includes(block.transactions.indexOf(tx))).to.equal(expected);
        }
      }),
    );
  });

  it('between [low, high] holds exactly when higher_than low-1 and lower_than high+1 both do', () => {
    fc.assert(
      fc.property(
        arbitraryBlock({ maxTransactions: 1 }),
        fc.nat(5_000_001),
        fc.nat(50),
        (block, low, width) => {
          const between =
            scopeMatcher({ scope: 'block_height', between: [low, low + width] })(block) !== undefined;
          const above = scopeMatcher({ scope: 'block_height', higher_than: low - 1 })(block) !== undefined;
          const below =
            scopeMatcher({ scope: 'block_height', lower_than: low + width + 1 })(block) !== undefined;
          expect(between).to.equal(above && below);
        },
      ),
    );
  });

  it('matches_regex of a literal takes what contains of the same text takes', () => {
    fc.assert(
      fc.property(arbitraryBlock(), fc.nat(), fc.nat(8), (block, seed, length) => {
        const prints = block.transactions.flatMap((tx) =>
          tx.events.flatMap((e) => (e.type === 'contract_log' ? [e.value.repr] : [])),
        );
        const source = prints.length > 0 ? prints[seed % prints.length]! : 'u1';
        const start = seed % Math.max(1, source.length);
        const text = source.slice(start, start + 1 + length);
        const contains = taken({ scope: 'print_event', contract_identifier: '*', contains: text }, block);
        const regex = taken(
          { scope: 'print_event', contract_identifier: '*', matches_regex: literal(text) },
          block,
        );
        expect(regex).to.deep.equal(text === '*' ? regex : contains);
      }),
    );
  });

  it('a scope takes transactions of the block only, in block order', () => {
    fc.assert(
      fc.property(arbitraryBlock(), stxActions, (block, actions) => {
        const positions = taken({ scope: 'stx_event', actions }, block);
        expect(positions).to.deep.equal([...positions].sort((x, y) => x - y));
        expect(positions.every((p) => p >= 0)).to.equal(true);
      }),
    );
  });
});
