import { expect } from 'chai';
import type { NormalizedTransaction } from '../../../core/chain/block.js';
import { matchTransaction } from '../../../core/matching/index.js';
import { aborted, contractCall, events, stxTransfer, withEvents } from '../../support/block-builder.js';
import { ALICE, BOB, CAROL, TOKEN, normalized } from './transactions.js';

const VAULT = `${BOB}.vault`;

describe('matchTransaction: STX', () => {
  let transfer: NormalizedTransaction; // an STX transfer transaction, alice → bob
  let contractTransfer: NormalizedTransaction; // a call whose contract sends STX: vault → carol
  let mintBurnLock: NormalizedTransaction; // mint to carol, burn by bob, lock of alice
  let ftOnly: NormalizedTransaction;
  let abortedTransfer: NormalizedTransaction;

  before(async () => {
    [transfer, contractTransfer, mintBurnLock, ftOnly, abortedTransfer] = normalized(
      await stxTransfer({ recipient: BOB, amount: 5n, nonce: 0 }),
      withEvents(
        await contractCall({ contractId: VAULT, functionName: 'pay', nonce: 1 }),
        events.stxTransfer({ sender: VAULT, recipient: CAROL, amount: 9 }),
      ),
      withEvents(
        await contractCall({ contractId: VAULT, functionName: 'misc', nonce: 2 }),
        events.stxMint({ recipient: CAROL, amount: 1 }),
        events.stxBurn({ sender: BOB, amount: 2 }),
        events.stxLock({ lockedAddress: ALICE, amount: 3, unlockHeight: 100 }),
      ),
      withEvents(
        await contractCall({ contractId: VAULT, functionName: 'ft', nonce: 3 }),
        events.ftTransfer({ asset: TOKEN, sender: ALICE, recipient: BOB, amount: 1 }),
      ),
      aborted(await stxTransfer({ recipient: CAROL, amount: 5n, nonce: 4 }), 'abort_by_post_condition'),
    );
  });

  describe('stx_transfer', () => {
    it('matches an STX transfer transaction by sender and receiver', () => {
      expect(matchTransaction({ type: 'stx_transfer', sender: ALICE, receiver: BOB }, transfer)).to.equal(
        true,
      );
    });

    it('matches a contract stx-transfer? alike, with a contract principal as sender', () => {
      expect(matchTransaction({ type: 'stx_transfer', sender: VAULT }, contractTransfer)).to.equal(true);
      expect(matchTransaction({ type: 'stx_transfer', receiver: CAROL }, contractTransfer)).to.equal(true);
    });

    it('compares principals exactly: a contract is not its deployer', () => {
      expect(matchTransaction({ type: 'stx_transfer', sender: BOB }, contractTransfer)).to.equal(false);
    });

    it('does not match another sender or receiver', () => {
      expect(matchTransaction({ type: 'stx_transfer', sender: BOB }, transfer)).to.equal(false);
      expect(matchTransaction({ type: 'stx_transfer', receiver: ALICE }, transfer)).to.equal(false);
    });

    it('ignores the uncommitted transfer of an aborted transaction', () => {
      expect(matchTransaction({ type: 'stx_transfer' }, abortedTransfer)).to.equal(false);
    });
  });

  describe('stx_mint and stx_burn', () => {
    it('matches a mint by receiver and a burn by sender', () => {
      expect(matchTransaction({ type: 'stx_mint', receiver: CAROL }, mintBurnLock)).to.equal(true);
      expect(matchTransaction({ type: 'stx_burn', sender: BOB }, mintBurnLock)).to.equal(true);
    });

    it('does not match another receiver or sender', () => {
      expect(matchTransaction({ type: 'stx_mint', receiver: BOB }, mintBurnLock)).to.equal(false);
      expect(matchTransaction({ type: 'stx_burn', sender: CAROL }, mintBurnLock)).to.equal(false);
    });

    it('does not take a transfer for a mint or a burn', () => {
      expect(matchTransaction({ type: 'stx_mint', receiver: BOB }, transfer)).to.equal(false);
      expect(matchTransaction({ type: 'stx_burn', sender: ALICE }, transfer)).to.equal(false);
    });
  });

  describe('stx_event', () => {
    it('matches a transfer, a mint, a burn and a lock', () => {
      expect(matchTransaction({ type: 'stx_event' }, transfer)).to.equal(true);
      expect(matchTransaction({ type: 'stx_event' }, contractTransfer)).to.equal(true);
      expect(matchTransaction({ type: 'stx_event' }, mintBurnLock)).to.equal(true);
    });

    it('matches a transaction whose only STX event is a lock', async () => {
      const [lockOnly] = normalized(
        withEvents(
          await contractCall({ contractId: `${ALICE}.pool`, functionName: 'stack', nonce: 9 }),
          events.stxLock({ lockedAddress: ALICE, amount: 3, unlockHeight: 100 }),
        ),
      );
      expect(matchTransaction({ type: 'stx_event' }, lockOnly)).to.equal(true);
    });

    it('does not match a transaction that moves no STX', () => {
      expect(matchTransaction({ type: 'stx_event' }, ftOnly)).to.equal(false);
    });

    it('ignores uncommitted events', () => {
      expect(matchTransaction({ type: 'stx_event' }, abortedTransfer)).to.equal(false);
    });
  });
});
