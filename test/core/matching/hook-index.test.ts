import { Cl, serializeCV } from '@stacks/transactions';
import { expect } from 'chai';
import type { NormalizedBlock, NormalizedTransaction } from '../../../core/chain/block.js';
import type { EventFilter } from '../../../core/hooks/definition.js';
import { HookIndex } from '../../../core/matching/index.js';
import {
  ChainBuilder,
  contractCall,
  events,
  minimalNormalizedBlock,
  stxTransfer,
  withEvents,
} from '../../support/block-builder.js';
import {
  ALICE,
  BOB,
  CAROL,
  NFT,
  TOKEN,
  TOKEN_CONTRACT,
  coinbase,
  normalized,
  tenureChange,
} from './transactions.js';

/** A block holding these transactions, in this order. */
function blockOf(transactions: NormalizedTransaction[]): NormalizedBlock {
  const header = new ChainBuilder().next();
  return { ...minimalNormalizedBlock(header), transactions };
}

describe('HookIndex', () => {
  let block: NormalizedBlock; // 0: STX alice → bob; 1: FT alice → carol + NFT u7 mint to bob; 2: coinbase; 3: tenure extended_runtime; 4: STX alice → carol

  before(async () => {
    const txs = normalized(
      await stxTransfer({ recipient: BOB, amount: 1n, nonce: 0 }),
      withEvents(
        await contractCall({ contractId: TOKEN_CONTRACT, functionName: 'transfer', nonce: 1 }),
        events.ftTransfer({ asset: TOKEN, sender: ALICE, recipient: CAROL, amount: 2 }),
        events.nftMint({ asset: NFT, value: Cl.uint(7), recipient: BOB }),
      ),
      await stxTransfer({ recipient: CAROL, amount: 1n, nonce: 2 }),
    );
    block = blockOf([txs[0], txs[1], coinbase(), tenureChange('extended_runtime'), txs[2]]);
  });

  const indexWith = (hooks: Record<string, EventFilter[]>) => {
    const index = new HookIndex();
    for (const [uuid, filters] of Object.entries(hooks)) index.add(uuid, filters);
    return index;
  };

  it('counts and finds the hooks it holds', () => {
    const index = indexWith({ a: [{ type: 'coinbase' }], b: [{ type: 'stx_event' }] });
    expect(index.size).to.equal(2);
    expect(index.has('a')).to.equal(true);
    expect(index.has('c')).to.equal(false);
  });

  it('matches nothing when empty', () => {
    expect(new HookIndex().matchBlock(block).size).to.equal(0);
  });

  it('lists each matching hook with the ascending indexes of its transactions', () => {
    const index = indexWith({
      sends: [{ type: 'stx_transfer', sender: ALICE }],
      none: [{ type: 'contract_deploy' }],
    });
    expect([...index.matchBlock(block)]).to.deep.equal([['sends', [0, 4]]]);
  });

  it('lists a transaction once for a hook that several filters match', () => {
    const index = indexWith({
      both: [
        { type: 'ft_transfer', asset_identifier: TOKEN },
        { type: 'nft_mint', receiver: BOB },
        { type: 'stx_event' },
      ],
    });
    expect(index.matchBlock(block).get('both')).to.deep.equal([0, 1, 4]);
  });

  it('replaces the filters of a hook added again under the same uuid', () => {
    const index = indexWith({ h: [{ type: 'coinbase' }] });
    index.add('h', [{ type: 'tenure_change', cause: 'extended' }]);
    expect(index.size).to.equal(1);
    expect(index.matchBlock(block).get('h')).to.deep.equal([3]);
  });

  it('forgets a removed hook, and ignores removing an unknown one', () => {
    const index = indexWith({ a: [{ type: 'coinbase' }], b: [{ type: 'coinbase' }] });
    index.remove('a');
    index.remove('zzz');
    expect(index.has('a')).to.equal(false);
    expect([...index.matchBlock(block).keys()]).to.deep.equal(['b']);
  });

  it('keeps the other hooks of a shared bucket when one is removed', () => {
    const index = indexWith({ a: [{ type: 'balance_change', principal: CAROL }] });
    index.add('b', [{ type: 'balance_change', principal: CAROL }]);
    index.add('c', [{ type: 'balance_change', principal: CAROL }]);
    index.remove('a');
    expect([...index.matchBlock(block).keys()].sort()).to.deep.equal(['b', 'c']);
    index.remove('b');
    index.remove('c');
    expect(index.matchBlock(block).size).to.equal(0);
  });

  it('confirms candidates: a filter found under its principal must hold in its other fields', () => {
    // Filed under sender ALICE, which both transfers have; only one goes to CAROL.
    const index = indexWith({ h: [{ type: 'stx_transfer', sender: ALICE, receiver: CAROL }] });
    expect(index.matchBlock(block).get('h')).to.deep.equal([4]);
  });

  it('finds NFT filters by value in every accepted form', () => {
    const hex = `0x${serializeCV(Cl.uint(7))}`;
    const index = indexWith({
      integer: [{ type: 'nft_event', value: 7 }],
      repr: [{ type: 'nft_mint', value: 'u7' }],
      lower: [{ type: 'nft_event', value: hex }],
      upper: [{ type: 'nft_mint', value: `0x${hex.slice(2).toUpperCase()}` }],
      other: [{ type: 'nft_event', value: 8 }],
    });
    const matches = index.matchBlock(block);
    expect([...matches.keys()].sort()).to.deep.equal(['integer', 'lower', 'repr', 'upper']);
  });

  it('finds tenure changes by cause family and coinbases in their wildcard bucket', () => {
    const index = indexWith({
      extended: [{ type: 'tenure_change', cause: 'extended' }],
      found: [{ type: 'tenure_change', cause: 'block_found' }],
      any: [{ type: 'tenure_change' }],
      coinbase: [{ type: 'coinbase' }],
    });
    const matches = index.matchBlock(block);
    expect(Object.fromEntries(matches)).to.deep.equal({ extended: [3], any: [3], coinbase: [2] });
  });

  it('calls forEachMatch back once per matching hook, with what matchBlock maps it to', () => {
    const index = indexWith({
      sends: [{ type: 'stx_transfer', sender: ALICE }],
      both: [{ type: 'ft_transfer', asset_identifier: TOKEN }, { type: 'stx_event' }],
      none: [{ type: 'contract_deploy' }],
    });
    const seen: [string, readonly number[]][] = [];
    index.forEachMatch(block, (uuid, txIndexes) => seen.push([uuid, txIndexes]));
    expect(seen.sort(([a], [b]) => (a < b ? -1 : 1))).to.deep.equal([
      ['both', [0, 1, 4]],
      ['sends', [0, 4]],
    ]);
  });

  it('lets a forEachMatch callback match another block without disturbing the matches still to come', () => {
    const index = indexWith({ a: [{ type: 'stx_event' }], b: [{ type: 'stx_event' }] });
    const other = blockOf([block.transactions[2], block.transactions[0]]); // coinbase, then the STX transfer
    const seen: Record<string, readonly number[]> = {};
    const inner: Record<string, readonly number[]>[] = [];
    index.forEachMatch(block, (uuid, txIndexes) => {
      seen[uuid] = txIndexes;
      inner.push(Object.fromEntries(index.matchBlock(other)));
    });
    expect(seen).to.deep.equal({ a: [0, 4], b: [0, 4] });
    expect(inner).to.deep.equal([
      { a: [1], b: [1] },
      { a: [1], b: [1] },
    ]);
  });

  it('lets a forEachMatch callback remove hooks: the block still reports them, the next does not', () => {
    const index = indexWith({ a: [{ type: 'coinbase' }], b: [{ type: 'coinbase' }] });
    const seen: string[] = [];
    index.forEachMatch(block, (uuid) => {
      seen.push(uuid);
      index.remove(uuid === 'a' ? 'b' : 'a');
    });
    expect(seen.sort()).to.deep.equal(['a', 'b']);
    expect(index.matchBlock(block).size).to.equal(0);
  });

  it('hands out one-transaction lists that a caller cannot change under another hook', () => {
    const index = indexWith({ a: [{ type: 'coinbase' }], b: [{ type: 'coinbase' }] });
    const first = index.matchBlock(block);
    expect(() => (first.get('a') as number[]).push(4)).to.throw(TypeError);
    expect(Object.fromEntries(first)).to.deep.equal({ a: [2], b: [2] });
    expect(Object.fromEntries(index.matchBlock(block))).to.deep.equal({ a: [2], b: [2] });
  });
});
