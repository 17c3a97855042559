import { Cl } from '@stacks/transactions';
import { expect } from 'chai';
import type { NormalizedBlock, NormalizedTransaction } from '../../../core/chain/block.js';
import type { StacksScope } from '../../../core/chainhook-v1/predicate.js';
import { scopeMatcher } from '../../../core/chainhook-v1/scope-matcher.js';
import {
  TEST_KEYS,
  aborted,
  contractCall,
  contractDeploy,
  events,
  withEvents,
} from '../../support/block-builder.js';
import { ALICE, BOB, CAROL, NFT, TOKEN, TOKEN_CONTRACT, normalized } from '../matching/transactions.js';
import { SIP10_ABI } from './token-abis.js';

function blockOf(transactions: NormalizedTransaction[], height = 100): NormalizedBlock {
  return {
    block_identifier: { index: height, hash: `0x${'11'.repeat(32)}` },
    parent_block_identifier: { index: height - 1, hash: `0x${'22'.repeat(32)}` },
    timestamp: 1_700_000_000,
    transactions,
    metadata: {} as NormalizedBlock['metadata'],
  };
}

/** The positions of the transactions a scope takes from the block, or undefined when the block does not occur. */
function taken(scope: StacksScope, block: NormalizedBlock): number[] | undefined {
  return scopeMatcher(scope)(block)?.transactions.map((tx) => block.transactions.indexOf(tx));
}

describe('scopeMatcher', () => {
  let block: NormalizedBlock;
  // 0: call TOKEN_CONTRACT.transfer with an FT transfer and a print
  // 1: call with an NFT mint, an STX lock and a print of a tuple
  // 2: aborted call whose FT burn and print never happened
  // 3: deploy of a SIP-010 token by BOB
  before(async () => {
    const call = (nonce: number, functionName = 'transfer') =>
      contractCall({ contractId: TOKEN_CONTRACT, functionName, nonce });
    block = blockOf(
      normalized(
        withEvents(
          await call(0),
          events.ftTransfer({ asset: TOKEN, sender: ALICE, recipient: BOB, amount: 5 }),
          events.print({ contractId: TOKEN_CONTRACT, value: Cl.stringAscii('vault opened') }),
        ),
        withEvents(
          await call(1, 'mint'),
          events.nftMint({ asset: NFT, value: Cl.uint(7), recipient: CAROL }),
          events.stxLock({
            lockedAddress: ALICE,
            amount: 1000,
            unlockHeight: 99,
            contractId: 'SP000000000000000000002Q6VF78.pox-4',
          }),
          events.print({
            contractId: `${BOB}.market`,
            value: Cl.tuple({ action: Cl.stringAscii('list'), id: Cl.uint(7) }),
          }),
        ),
        aborted(
          withEvents(
            await call(2, 'burn'),
            events.ftBurn({ asset: TOKEN, sender: ALICE, amount: 1 }),
            events.print({ contractId: TOKEN_CONTRACT, value: Cl.stringAscii('burned') }),
          ),
          'abort_by_response',
        ),
        await contractDeploy({
          contractName: 'coin',
          codeBody: '(define-fungible-token coin)',
          senderKey: TEST_KEYS.bob,
          abi: SIP10_ABI,
        }),
      ),
    );
  });

  it('txid takes the one transaction with that id, whatever its case', () => {
    const id = block.transactions[1]!.transaction_identifier.hash;
    expect(taken({ scope: 'txid', equals: id.toLowerCase() }, block)).to.deep.equal([1]);
    expect(taken({ scope: 'txid', equals: `0x${'00'.repeat(32)}` }, block)).to.equal(undefined);
  });

  it('block_height takes the whole block when its height holds, every rule', () => {
    expect(taken({ scope: 'block_height', equals: 100 }, block)).to.deep.equal([0, 1, 2, 3]);
    expect(taken({ scope: 'block_height', higher_than: 100 }, block)).to.equal(undefined);
    expect(taken({ scope: 'block_height', lower_than: 101 }, block)).to.have.length(4);
    expect(taken({ scope: 'block_height', between: [100, 100] }, block)).to.have.length(4);
    expect(taken({ scope: 'block_height', between: [101, 200] }, block)).to.equal(undefined);
  });

  it('block_height takes a block with no transactions', () => {
    expect(taken({ scope: 'block_height', equals: 5 }, blockOf([], 5))).to.deep.equal([]);
  });

  it('ft_event takes transactions with a committed event of the asset and one of the actions', () => {
    expect(taken({ scope: 'ft_event', asset_identifier: TOKEN, actions: ['transfer'] }, block)).to.deep.equal(
      [0],
    );
    expect(taken({ scope: 'ft_event', asset_identifier: TOKEN, actions: ['mint'] }, block)).to.equal(
      undefined,
    );
    // The aborted burn never happened.
    expect(taken({ scope: 'ft_event', asset_identifier: TOKEN, actions: ['burn'] }, block)).to.equal(
      undefined,
    );
  });

  it('nft_event takes the mint of its asset only', () => {
    expect(
      taken({ scope: 'nft_event', asset_identifier: NFT, actions: ['mint', 'burn'] }, block),
    ).to.deep.equal([1]);
    expect(taken({ scope: 'nft_event', asset_identifier: TOKEN, actions: ['mint'] }, block)).to.equal(
      undefined,
    );
  });

  it('stx_event with lock takes the transaction that locked STX', () => {
    expect(taken({ scope: 'stx_event', actions: ['lock'] }, block)).to.deep.equal([1]);
    expect(taken({ scope: 'stx_event', actions: ['burn'] }, block)).to.equal(undefined);
  });

  it('print_event contains looks in the printed value as Clarity text, quotes included', () => {
    const contains = (contract_identifier: string, text: string) =>
      taken({ scope: 'print_event', contract_identifier, contains: text }, block);
    expect(contains(TOKEN_CONTRACT, 'vault')).to.deep.equal([0]);
    expect(contains(TOKEN_CONTRACT, '"vault opened"')).to.deep.equal([0]);
    expect(contains('*', '(id u7)')).to.deep.equal([1]);
    expect(contains(TOKEN_CONTRACT, 'list')).to.equal(undefined);
    expect(contains('*', '*')).to.deep.equal([0, 1]);
  });

  it('print_event matches_regex finds the pattern anywhere in the Clarity text', () => {
    const regex = (matches_regex: string) =>
      taken({ scope: 'print_event', contract_identifier: '*', matches_regex }, block);
    expect(regex('^"vault')).to.deep.equal([0]);
    expect(regex('\\(action "l[a-z]+t"\\)')).to.deep.equal([1]);
    expect(regex('burned')).to.equal(undefined);
  });

  it('a pattern that makes a backtracking engine run for ever finishes on a long print', async () => {
    const long = blockOf(
      normalized(
        withEvents(
          await contractCall({ contractId: TOKEN_CONTRACT, functionName: 'log', nonce: 0 }),
          events.print({ contractId: TOKEN_CONTRACT, value: Cl.stringAscii(`${'a'.repeat(30_000)}!`) }),
        ),
      ),
    );
    expect(
      taken({ scope: 'print_event', contract_identifier: '*', matches_regex: '"(a+)+"' }, long),
    ).to.equal(undefined);
    expect(
      taken({ scope: 'print_event', contract_identifier: '*', matches_regex: '(a|aa)+!' }, long),
    ).to.deep.equal([0]);
  });

  it('contract_call takes calls of the method on the contract, aborted ones included', () => {
    expect(
      taken({ scope: 'contract_call', contract_identifier: TOKEN_CONTRACT, method: 'burn' }, block),
    ).to.deep.equal([2]);
    expect(
      taken({ scope: 'contract_call', contract_identifier: `${BOB}.market`, method: 'mint' }, block),
    ).to.equal(undefined);
  });

  it('contract_deployment deployer is a prefix of the contract identifier, * any deployment', () => {
    expect(taken({ scope: 'contract_deployment', deployer: BOB }, block)).to.deep.equal([3]);
    expect(taken({ scope: 'contract_deployment', deployer: `${BOB}.co` }, block)).to.deep.equal([3]);
    expect(taken({ scope: 'contract_deployment', deployer: '*' }, block)).to.deep.equal([3]);
    expect(taken({ scope: 'contract_deployment', deployer: CAROL }, block)).to.equal(undefined);
  });

  it('contract_deployment implement_trait decides sip10 and sip09 from the ABI', () => {
    expect(taken({ scope: 'contract_deployment', implement_trait: 'sip10' }, block)).to.deep.equal([3]);
    expect(taken({ scope: 'contract_deployment', implement_trait: 'sip09' }, block)).to.equal(undefined);
    expect(taken({ scope: 'contract_deployment', implement_trait: '*' }, block)).to.deep.equal([3]);
  });

  it('signer_message matches no block', () => {
    expect(taken({ scope: 'signer_message', after_timestamp: 0 }, block)).to.equal(undefined);
  });
});
