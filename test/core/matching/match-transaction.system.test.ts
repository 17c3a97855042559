import { Cl } from '@stacks/transactions';
import { expect } from 'chai';
import type { NormalizedTransaction } from '../../../core/chain/block.js';
import { matchTransaction, matchesAnyFilter } from '../../../core/matching/index.js';
import { aborted, contractCall, events, stxTransfer, withEvents } from '../../support/block-builder.js';
import {
  ALICE,
  BOB,
  CAROL,
  NFT,
  TOKEN,
  coinbase,
  normalized,
  sponsoredBy,
  tenureChange,
} from './transactions.js';

const VAULT = `${BOB}.vault`;

describe('matchTransaction: coinbase and tenure changes', () => {
  it('matches a coinbase with coinbase and nothing else with it', async () => {
    const [transfer] = normalized(await stxTransfer({ recipient: BOB, amount: 1n }));
    expect(matchTransaction({ type: 'coinbase' }, coinbase())).to.equal(true);
    expect(matchTransaction({ type: 'coinbase' }, transfer)).to.equal(false);
    expect(matchTransaction({ type: 'coinbase' }, tenureChange('block_found'))).to.equal(false);
  });

  it('matches every tenure change when cause is omitted', () => {
    expect(matchTransaction({ type: 'tenure_change' }, tenureChange('block_found'))).to.equal(true);
    expect(matchTransaction({ type: 'tenure_change' }, tenureChange('extended_write_length'))).to.equal(true);
    expect(matchTransaction({ type: 'tenure_change' }, coinbase())).to.equal(false);
  });

  it('matches cause block_found only to block_found', () => {
    expect(
      matchTransaction({ type: 'tenure_change', cause: 'block_found' }, tenureChange('block_found')),
    ).to.equal(true);
    expect(
      matchTransaction({ type: 'tenure_change', cause: 'block_found' }, tenureChange('extended')),
    ).to.equal(false);
  });

  it('matches cause extended to extended and to every extended_* cause', () => {
    for (const cause of [
      'extended',
      'extended_runtime',
      'extended_read_count',
      'extended_write_length',
    ] as const) {
      expect(
        matchTransaction({ type: 'tenure_change', cause: 'extended' }, tenureChange(cause)),
        cause,
      ).to.equal(true);
    }
    expect(
      matchTransaction({ type: 'tenure_change', cause: 'extended' }, tenureChange('block_found')),
    ).to.equal(false);
  });
});

describe('matchTransaction: balance_change', () => {
  let transfer: NormalizedTransaction; // alice → bob STX, fee 180 paid by alice
  let tokens: NormalizedTransaction; // alice calls VAULT: FT vault → carol, NFT mint to bob, FT burn by carol, lock of alice, a print
  let feeOnly: NormalizedTransaction; // alice calls VAULT, no events
  let free: NormalizedTransaction; // alice calls VAULT, fee 0, no events
  let abortedTransfer: NormalizedTransaction; // alice → carol STX, aborted: only the fee happened

  before(async () => {
    [transfer, tokens, feeOnly, free, abortedTransfer] = normalized(
      await stxTransfer({ recipient: BOB, amount: 5n, nonce: 0 }),
      withEvents(
        await contractCall({ contractId: VAULT, functionName: 'go', nonce: 1 }),
        events.ftTransfer({ asset: TOKEN, sender: VAULT, recipient: CAROL, amount: 4 }),
        events.nftMint({ asset: NFT, value: Cl.uint(1), recipient: BOB }),
        events.ftBurn({ asset: TOKEN, sender: CAROL, amount: 1 }),
        events.stxLock({ lockedAddress: ALICE, amount: 100, unlockHeight: 10 }),
        events.print({ contractId: `${CAROL}.logger`, value: Cl.uint(1) }),
      ),
      await contractCall({ contractId: VAULT, functionName: 'go', nonce: 2 }),
      await contractCall({ contractId: VAULT, functionName: 'go', nonce: 3, fee: 0 }),
      aborted(await stxTransfer({ recipient: CAROL, amount: 5n, nonce: 4 }), 'abort_by_post_condition'),
    );
  });

  const matches = (principal: string, tx: NormalizedTransaction) =>
    matchTransaction({ type: 'balance_change', principal }, tx);

  it('matches both sides of an STX transfer', () => {
    expect(matches(ALICE, transfer)).to.equal(true);
    expect(matches(BOB, transfer)).to.equal(true);
    expect(matches(CAROL, transfer)).to.equal(false);
  });

  it('matches the fee payer of a transaction that moves nothing else', () => {
    expect(matches(ALICE, feeOnly)).to.equal(true);
  });

  it('does not match the sender of a transaction without fee or movements', () => {
    expect(matches(ALICE, free)).to.equal(false);
  });

  it('matches the sponsor, not the sender, as the fee payer of a sponsored transaction', () => {
    const sponsored = sponsoredBy(feeOnly, CAROL);
    expect(matches(CAROL, sponsored)).to.equal(true);
    expect(matches(ALICE, sponsored)).to.equal(false);
  });

  it('matches token transfers, mints, burns and STX locks by their accounts', () => {
    expect(matches(VAULT, tokens), 'FT sender').to.equal(true);
    expect(matches(CAROL, tokens), 'FT recipient and burner').to.equal(true);
    expect(matches(BOB, tokens), 'NFT mint recipient').to.equal(true);
    expect(matches(ALICE, tokens), 'fee payer and locked address').to.equal(true);
  });

  it('does not match a contract that was only called or only printed', () => {
    expect(matches(VAULT, feeOnly)).to.equal(false);
    expect(matches(`${CAROL}.logger`, tokens)).to.equal(false);
  });

  it('compares principals exactly: the deployer is not its contract', () => {
    expect(matches(BOB, feeOnly)).to.equal(false);
    expect(matches(`${ALICE}.vault`, tokens)).to.equal(false);
  });

  it('matches only the fee payer of an aborted transaction', () => {
    expect(matches(ALICE, abortedTransfer)).to.equal(true);
    expect(matches(CAROL, abortedTransfer)).to.equal(false);
  });
});

describe('matchesAnyFilter', () => {
  it('is true when any filter matches, false when none does or there are none', () => {
    const tx = tenureChange('block_found');
    expect(matchesAnyFilter([{ type: 'coinbase' }, { type: 'tenure_change' }], tx)).to.equal(true);
    expect(matchesAnyFilter([{ type: 'coinbase' }, { type: 'stx_event' }], tx)).to.equal(false);
    expect(matchesAnyFilter([], tx)).to.equal(false);
  });
});
