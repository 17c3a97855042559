import { Cl } from '@stacks/transactions';
import { expect } from 'chai';
import type { NormalizedTransaction } from '../../../core/chain/block.js';
import { matchTransaction } from '../../../core/matching/index.js';
import {
  TEST_KEYS,
  aborted,
  contractCall,
  contractDeploy,
  events,
  stxTransfer,
  withEvents,
} from '../../support/block-builder.js';
import { ALICE, BOB, CAROL, TOKEN_CONTRACT, normalized } from './transactions.js';

const ROUTER = `${CAROL}.router`;

describe('matchTransaction: contracts', () => {
  let deploy: NormalizedTransaction; // alice deploys ALICE.counter, which prints while deploying
  let abortedDeploy: NormalizedTransaction; // alice deploys ALICE.broken, aborted
  let call: NormalizedTransaction; // bob calls ROUTER.swap, and TOKEN_CONTRACT prints
  let abortedCall: NormalizedTransaction; // bob calls ROUTER.swap, aborted: the print is uncommitted
  let transfer: NormalizedTransaction;

  before(async () => {
    const print = events.print({ contractId: TOKEN_CONTRACT, value: Cl.stringAscii('swapped') });
    [deploy, abortedDeploy, call, abortedCall, transfer] = normalized(
      withEvents(
        await contractDeploy({ contractName: 'counter', codeBody: '(print "hi")', nonce: 0 }),
        events.print({ contractId: `${ALICE}.counter`, value: Cl.stringAscii('hi') }),
      ),
      aborted(
        await contractDeploy({ contractName: 'broken', codeBody: '(err u1)', nonce: 1 }),
        'abort_by_response',
      ),
      withEvents(
        await contractCall({ contractId: ROUTER, functionName: 'swap', senderKey: TEST_KEYS.bob }),
        print,
      ),
      aborted(
        withEvents(
          await contractCall({
            contractId: ROUTER,
            functionName: 'swap',
            senderKey: TEST_KEYS.bob,
            nonce: 1,
          }),
          print,
        ),
        'abort_by_response',
      ),
      await stxTransfer({ recipient: BOB, amount: 1n, nonce: 2 }),
    );
  });

  describe('contract_deploy', () => {
    it('matches a deploy by the new contract and by the deployer', () => {
      expect(matchTransaction({ type: 'contract_deploy' }, deploy)).to.equal(true);
      expect(
        matchTransaction({ type: 'contract_deploy', contract_identifier: `${ALICE}.counter` }, deploy),
      ).to.equal(true);
      expect(matchTransaction({ type: 'contract_deploy', sender: ALICE }, deploy)).to.equal(true);
    });

    it('does not match another contract or deployer', () => {
      expect(
        matchTransaction({ type: 'contract_deploy', contract_identifier: `${ALICE}.other` }, deploy),
      ).to.equal(false);
      expect(matchTransaction({ type: 'contract_deploy', sender: BOB }, deploy)).to.equal(false);
    });

    it('matches an aborted deploy: kind filters ignore the result', () => {
      expect(
        matchTransaction({ type: 'contract_deploy', contract_identifier: `${ALICE}.broken` }, abortedDeploy),
      ).to.equal(true);
    });

    it('does not match a contract call or a transfer', () => {
      expect(matchTransaction({ type: 'contract_deploy' }, call)).to.equal(false);
      expect(matchTransaction({ type: 'contract_deploy' }, transfer)).to.equal(false);
    });
  });

  describe('contract_call', () => {
    it('matches by contract, function and the transaction sender', () => {
      expect(
        matchTransaction(
          { type: 'contract_call', contract_identifier: ROUTER, function_name: 'swap', sender: BOB },
          call,
        ),
      ).to.equal(true);
    });

    it('does not match another contract, function or sender', () => {
      expect(matchTransaction({ type: 'contract_call', contract_identifier: TOKEN_CONTRACT }, call)).to.equal(
        false,
      );
      expect(matchTransaction({ type: 'contract_call', function_name: 'mint' }, call)).to.equal(false);
      expect(matchTransaction({ type: 'contract_call', sender: ALICE }, call)).to.equal(false);
    });

    it('matches an aborted call: kind filters ignore the result', () => {
      expect(matchTransaction({ type: 'contract_call', contract_identifier: ROUTER }, abortedCall)).to.equal(
        true,
      );
    });

    it('matches only the top-level call, not a contract that merely printed during it', () => {
      expect(matchTransaction({ type: 'contract_call', contract_identifier: TOKEN_CONTRACT }, call)).to.equal(
        false,
      );
    });

    it('does not match a deploy or a transfer', () => {
      expect(matchTransaction({ type: 'contract_call' }, deploy)).to.equal(false);
      expect(matchTransaction({ type: 'contract_call' }, transfer)).to.equal(false);
    });
  });

  describe('contract_log', () => {
    it('matches by the printing contract, not the called one', () => {
      expect(matchTransaction({ type: 'contract_log', contract_identifier: TOKEN_CONTRACT }, call)).to.equal(
        true,
      );
      expect(matchTransaction({ type: 'contract_log', contract_identifier: ROUTER }, call)).to.equal(false);
    });

    it('matches sender against the transaction sender', () => {
      expect(matchTransaction({ type: 'contract_log', sender: BOB }, call)).to.equal(true);
      expect(matchTransaction({ type: 'contract_log', sender: TOKEN_CONTRACT }, call)).to.equal(false);
    });

    it('matches a print made while deploying', () => {
      expect(
        matchTransaction({ type: 'contract_log', contract_identifier: `${ALICE}.counter` }, deploy),
      ).to.equal(true);
    });

    it('ignores the uncommitted print of an aborted call', () => {
      expect(matchTransaction({ type: 'contract_log' }, abortedCall)).to.equal(false);
    });

    it('does not match a transaction that printed nothing', () => {
      expect(matchTransaction({ type: 'contract_log', sender: ALICE }, transfer)).to.equal(false);
    });
  });
});
