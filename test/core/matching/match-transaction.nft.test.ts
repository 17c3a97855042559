import { Cl, serializeCV } from '@stacks/transactions';
import { expect } from 'chai';
import type { NormalizedTransaction } from '../../../core/chain/block.js';
import { matchTransaction } from '../../../core/matching/index.js';
import { aborted, contractCall, events, withEvents } from '../../support/block-builder.js';
import { ALICE, BOB, CAROL, NFT, normalized } from './transactions.js';

const OTHER_NFT = `${BOB}.badges::badge`;

describe('matchTransaction: non-fungible tokens', () => {
  let transfer: NormalizedTransaction; // NFT u5 alice → bob
  let mint: NormalizedTransaction; // NFT "name" to carol, then OTHER_NFT (int 7) to carol
  let burn: NormalizedTransaction; // NFT 0x0102 by bob
  let abortedTransfer: NormalizedTransaction; // NFT u9 alice → carol, uncommitted

  before(async () => {
    const call = (nonce: number) => contractCall({ contractId: `${ALICE}.art`, functionName: 'go', nonce });
    [transfer, mint, burn, abortedTransfer] = normalized(
      withEvents(
        await call(0),
        events.nftTransfer({ asset: NFT, value: Cl.uint(5), sender: ALICE, recipient: BOB }),
      ),
      withEvents(
        await call(1),
        events.nftMint({ asset: NFT, value: Cl.stringAscii('name'), recipient: CAROL }),
        events.nftMint({ asset: OTHER_NFT, value: Cl.int(7), recipient: CAROL }),
      ),
      withEvents(
        await call(2),
        events.nftBurn({ asset: NFT, value: Cl.buffer(Buffer.from('0102', 'hex')), sender: BOB }),
      ),
      aborted(
        withEvents(
          await call(3),
          events.nftTransfer({ asset: NFT, value: Cl.uint(9), sender: ALICE, recipient: CAROL }),
        ),
        'abort_by_post_condition',
      ),
    );
  });

  describe('nft_transfer', () => {
    it('matches a committed transfer by asset, sender and receiver', () => {
      expect(
        matchTransaction(
          { type: 'nft_transfer', asset_identifier: NFT, sender: ALICE, receiver: BOB },
          transfer,
        ),
      ).to.equal(true);
    });

    it('does not match another sender, receiver or asset', () => {
      expect(matchTransaction({ type: 'nft_transfer', sender: BOB }, transfer)).to.equal(false);
      expect(matchTransaction({ type: 'nft_transfer', receiver: ALICE }, transfer)).to.equal(false);
      expect(matchTransaction({ type: 'nft_transfer', asset_identifier: OTHER_NFT }, transfer)).to.equal(
        false,
      );
    });

    it('ignores the uncommitted transfer of an aborted transaction', () => {
      expect(matchTransaction({ type: 'nft_transfer', receiver: CAROL }, abortedTransfer)).to.equal(false);
      expect(matchTransaction({ type: 'nft_transfer' }, abortedTransfer)).to.equal(false);
    });
  });

  describe('nft value', () => {
    it('matches an integer N against the token id (uint N)', () => {
      expect(matchTransaction({ type: 'nft_transfer', value: 5 }, transfer)).to.equal(true);
      expect(matchTransaction({ type: 'nft_transfer', value: 6 }, transfer)).to.equal(false);
    });

    it('does not match an integer N against a signed (int N) id', () => {
      expect(matchTransaction({ type: 'nft_mint', asset_identifier: OTHER_NFT, value: 7 }, mint)).to.equal(
        false,
      );
      expect(matchTransaction({ type: 'nft_mint', asset_identifier: OTHER_NFT, value: '7' }, mint)).to.equal(
        true,
      );
    });

    it('matches a string against the Clarity repr exactly', () => {
      expect(matchTransaction({ type: 'nft_transfer', value: 'u5' }, transfer)).to.equal(true);
      expect(matchTransaction({ type: 'nft_mint', value: '"name"' }, mint)).to.equal(true);
      expect(matchTransaction({ type: 'nft_mint', value: 'name' }, mint)).to.equal(false);
      expect(matchTransaction({ type: 'nft_transfer', value: 'U5' }, transfer)).to.equal(false);
    });

    it('matches a 0x string against the serialized id, in either case', () => {
      const hex = `0x${serializeCV(Cl.uint(5))}`;
      expect(matchTransaction({ type: 'nft_transfer', value: hex }, transfer)).to.equal(true);
      expect(
        matchTransaction({ type: 'nft_transfer', value: `0x${hex.slice(2).toUpperCase()}` }, transfer),
      ).to.equal(true);
      expect(
        matchTransaction({ type: 'nft_transfer', value: `0x${serializeCV(Cl.uint(6))}` }, transfer),
      ).to.equal(false);
    });

    it('matches a buffer id by its repr or by its serialization', () => {
      expect(matchTransaction({ type: 'nft_burn', value: '0x0102' }, burn)).to.equal(true);
      expect(matchTransaction({ type: 'nft_burn', value: '0x02000000020102' }, burn)).to.equal(true);
      expect(matchTransaction({ type: 'nft_burn', value: '0x0103' }, burn)).to.equal(false);
    });

    it('requires the value and the asset to hold in the same event', () => {
      expect(
        matchTransaction({ type: 'nft_mint', asset_identifier: OTHER_NFT, value: '"name"' }, mint),
      ).to.equal(false);
    });
  });

  describe('nft_mint and nft_burn', () => {
    it('matches a mint by receiver and a burn by sender', () => {
      expect(matchTransaction({ type: 'nft_mint', asset_identifier: NFT, receiver: CAROL }, mint)).to.equal(
        true,
      );
      expect(matchTransaction({ type: 'nft_burn', asset_identifier: NFT, sender: BOB }, burn)).to.equal(true);
    });

    it('does not confuse mints, burns and transfers', () => {
      expect(matchTransaction({ type: 'nft_mint' }, transfer)).to.equal(false);
      expect(matchTransaction({ type: 'nft_burn' }, mint)).to.equal(false);
      expect(matchTransaction({ type: 'nft_transfer' }, burn)).to.equal(false);
    });

    it('does not match another receiver or sender', () => {
      expect(matchTransaction({ type: 'nft_mint', receiver: BOB }, mint)).to.equal(false);
      expect(matchTransaction({ type: 'nft_burn', sender: ALICE }, burn)).to.equal(false);
    });
  });

  describe('nft_event', () => {
    it('matches a transfer, a mint and a burn of the asset', () => {
      for (const tx of [transfer, mint, burn]) {
        expect(matchTransaction({ type: 'nft_event', asset_identifier: NFT }, tx)).to.equal(true);
      }
    });

    it('narrows by value', () => {
      expect(matchTransaction({ type: 'nft_event', value: 5 }, transfer)).to.equal(true);
      expect(matchTransaction({ type: 'nft_event', value: 5 }, mint)).to.equal(false);
    });

    it('ignores uncommitted events', () => {
      expect(matchTransaction({ type: 'nft_event', value: 9 }, abortedTransfer)).to.equal(false);
    });
  });
});
