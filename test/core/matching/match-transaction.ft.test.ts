import { expect } from 'chai';
import type { NormalizedTransaction } from '../../../core/chain/block.js';
import { matchTransaction } from '../../../core/matching/index.js';
import { aborted, contractCall, events, withEvents } from '../../support/block-builder.js';
import { ALICE, BOB, CAROL, OTHER_TOKEN, TOKEN, TOKEN_CONTRACT, normalized } from './transactions.js';

describe('matchTransaction: fungible tokens', () => {
  let transfer: NormalizedTransaction; // OTHER_TOKEN carol → alice, then TOKEN alice → bob
  let mint: NormalizedTransaction; // TOKEN to carol
  let burn: NormalizedTransaction; // TOKEN by bob
  let abortedTransfer: NormalizedTransaction; // TOKEN alice → bob, uncommitted

  before(async () => {
    const call = (nonce: number) =>
      contractCall({ contractId: TOKEN_CONTRACT, functionName: 'transfer', nonce });
    [transfer, mint, burn, abortedTransfer] = normalized(
      withEvents(
        await call(0),
        events.ftTransfer({ asset: OTHER_TOKEN, sender: CAROL, recipient: ALICE, amount: 1 }),
        events.ftTransfer({ asset: TOKEN, sender: ALICE, recipient: BOB, amount: 5 }),
      ),
      withEvents(await call(1), events.ftMint({ asset: TOKEN, recipient: CAROL, amount: 7 })),
      withEvents(await call(2), events.ftBurn({ asset: TOKEN, sender: BOB, amount: 3 })),
      aborted(
        withEvents(
          await call(3),
          events.ftTransfer({ asset: TOKEN, sender: ALICE, recipient: BOB, amount: 5 }),
        ),
        'abort_by_response',
      ),
    );
  });

  describe('ft_transfer', () => {
    it('matches a transaction with a committed FT transfer when no field narrows it', () => {
      expect(matchTransaction({ type: 'ft_transfer' }, transfer)).to.equal(true);
    });

    it('matches an ft_transfer that is not the first event', () => {
      expect(matchTransaction({ type: 'ft_transfer', asset_identifier: TOKEN }, transfer)).to.equal(true);
    });

    it('does not match a transfer of another asset', () => {
      expect(
        matchTransaction({ type: 'ft_transfer', asset_identifier: `${BOB}.none::x` }, transfer),
      ).to.equal(false);
    });

    it('matches sender against the event sender', () => {
      expect(matchTransaction({ type: 'ft_transfer', sender: ALICE }, transfer)).to.equal(true);
      expect(matchTransaction({ type: 'ft_transfer', sender: BOB }, transfer)).to.equal(false);
    });

    it('matches receiver against the event recipient', () => {
      expect(matchTransaction({ type: 'ft_transfer', receiver: BOB }, transfer)).to.equal(true);
      expect(matchTransaction({ type: 'ft_transfer', receiver: CAROL }, transfer)).to.equal(false);
    });

    it('requires every given field to hold in the same event', () => {
      // CAROL sends OTHER_TOKEN and ALICE sends TOKEN, but CAROL never sends TOKEN.
      expect(
        matchTransaction({ type: 'ft_transfer', asset_identifier: TOKEN, sender: CAROL }, transfer),
      ).to.equal(false);
      expect(
        matchTransaction(
          { type: 'ft_transfer', asset_identifier: TOKEN, sender: ALICE, receiver: BOB },
          transfer,
        ),
      ).to.equal(true);
    });

    it('does not match a mint or a burn', () => {
      expect(matchTransaction({ type: 'ft_transfer' }, mint)).to.equal(false);
      expect(matchTransaction({ type: 'ft_transfer' }, burn)).to.equal(false);
    });

    it('ignores the uncommitted transfer of an aborted transaction', () => {
      expect(matchTransaction({ type: 'ft_transfer' }, abortedTransfer)).to.equal(false);
    });
  });

  describe('ft_mint', () => {
    it('matches a committed mint by asset and receiver', () => {
      expect(matchTransaction({ type: 'ft_mint', asset_identifier: TOKEN, receiver: CAROL }, mint)).to.equal(
        true,
      );
    });

    it('does not match a mint to another receiver or of another asset', () => {
      expect(matchTransaction({ type: 'ft_mint', receiver: ALICE }, mint)).to.equal(false);
      expect(matchTransaction({ type: 'ft_mint', asset_identifier: OTHER_TOKEN }, mint)).to.equal(false);
    });

    it('does not match a transfer to the same receiver', () => {
      expect(matchTransaction({ type: 'ft_mint', receiver: BOB }, transfer)).to.equal(false);
    });
  });

  describe('ft_burn', () => {
    it('matches a committed burn by asset and sender', () => {
      expect(matchTransaction({ type: 'ft_burn', asset_identifier: TOKEN, sender: BOB }, burn)).to.equal(
        true,
      );
    });

    it('does not match a burn by another sender or of another asset', () => {
      expect(matchTransaction({ type: 'ft_burn', sender: ALICE }, burn)).to.equal(false);
      expect(matchTransaction({ type: 'ft_burn', asset_identifier: OTHER_TOKEN }, burn)).to.equal(false);
    });

    it('does not match a transfer from the same sender', () => {
      expect(matchTransaction({ type: 'ft_burn', sender: ALICE }, transfer)).to.equal(false);
    });
  });

  describe('ft_event', () => {
    it('matches a transfer, a mint and a burn of the asset', () => {
      for (const tx of [transfer, mint, burn]) {
        expect(matchTransaction({ type: 'ft_event', asset_identifier: TOKEN }, tx)).to.equal(true);
      }
    });

    it('does not match where the asset does not move', () => {
      expect(matchTransaction({ type: 'ft_event', asset_identifier: OTHER_TOKEN }, mint)).to.equal(false);
    });

    it('ignores uncommitted events', () => {
      expect(matchTransaction({ type: 'ft_event' }, abortedTransfer)).to.equal(false);
    });
  });
});
