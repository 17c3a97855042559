import { expect } from 'chai';
import { decodeBurnchainTransaction } from '../../../core/stacks-codec/burnchain-operation.js';
import type { NodeEvent, NodeStacksAddress } from '../../../core/stacks-codec/node-block.js';

const SENDER = 'SP2ZP4GJDZJ1FDHTQ963F0292PE9J9752TZJ68F21';
const RECIPIENT = 'SMQ5V9ZVGN62G1X3VJNM2MF64SG6JXS8SKVNTGZQ';
const BOOT = 'SP000000000000000000002Q6VF78';
const address = (a: string): NodeStacksAddress => ({
  address: a,
  address_hash_bytes: '0x00',
  address_version: 22,
});
const common = { burn_block_height: 800000, burn_header_hash: '0xab', burn_txid: '0xcd', vtxindex: 3 };
const txid = '0x01';

describe('decodeBurnchainTransaction', () => {
  it('has no fee, nonce, sponsor or post-conditions', () => {
    const decoded = decodeBurnchainTransaction(null, [], 'mainnet');
    expect(decoded).to.deep.include({
      fee: '0',
      nonce: 0,
      sponsor_address: null,
      sponsored: false,
      post_conditions: { mode: 'allow', post_conditions: [] },
    });
  });

  it('makes a transfer_stx op a token_transfer from its sender', () => {
    const op = {
      transfer_stx: {
        ...common,
        sender: address(SENDER),
        recipient: address(RECIPIENT),
        transfered_ustx: 2000,
        memo: '0x6869',
      },
    };
    const decoded = decodeBurnchainTransaction(op, [], 'mainnet');
    expect(decoded.sender_address).to.equal(SENDER);
    expect(decoded.payload).to.deep.equal({
      type: 'token_transfer',
      recipient: RECIPIENT,
      amount: '2000',
      memo: '0x6869',
    });
  });

  it('makes a stack_stx op with a signer key a stack-stx call to pox-4', () => {
    const op = {
      stack_stx: {
        ...common,
        sender: address(SENDER),
        reward_addr: '1A1z',
        stacked_ustx: 5,
        num_cycles: 1,
        signer_key: '02aa',
      },
    };
    expect(decodeBurnchainTransaction(op, [], 'mainnet').payload).to.deep.equal({
      type: 'contract_call',
      contract_identifier: `${BOOT}.pox-4`,
      function_name: 'stack-stx',
      args: [],
    });
  });

  it('calls the PoX contract that the lock event names for a stack_stx op', () => {
    const op = {
      stack_stx: { ...common, sender: address(SENDER), reward_addr: '1A1z', stacked_ustx: 5, num_cycles: 1 },
    };
    const lock: NodeEvent = {
      txid,
      event_index: 0,
      committed: true,
      type: 'stx_lock_event',
      stx_lock_event: {
        locked_amount: '5',
        unlock_height: '900',
        locked_address: SENDER,
        contract_identifier: `${BOOT}.pox-2`,
      },
    };
    expect(decodeBurnchainTransaction(op, [lock], 'mainnet').payload).to.include({
      contract_identifier: `${BOOT}.pox-2`,
    });
  });

  it('makes a delegate_stx op a delegate-stx call from its sender', () => {
    const op = {
      delegate_stx: {
        ...common,
        sender: address(SENDER),
        delegate_to: address(RECIPIENT),
        delegated_ustx: 10,
        reward_addr: null,
        until_burn_height: null,
      },
    };
    const decoded = decodeBurnchainTransaction(op, [], 'testnet');
    expect(decoded.sender_address).to.equal(SENDER);
    expect(decoded.payload).to.include({
      contract_identifier: 'ST000000000000000000002AMW42H.pox-4',
      function_name: 'delegate-stx',
    });
  });

  it('makes a vote_for_aggregate_key op a call to signers-voting', () => {
    const op = {
      vote_for_aggregate_key: {
        ...common,
        sender: address(SENDER),
        aggregate_key: '02bb',
        reward_cycle: 80,
        round: 0,
        signer_index: 1,
        signer_key: '02cc',
      },
    };
    expect(decodeBurnchainTransaction(op, [], 'mainnet').payload).to.include({
      contract_identifier: `${BOOT}.signers-voting`,
      function_name: 'vote-for-aggregate-public-key',
    });
  });

  it('rebuilds an STX transfer from its event when an old node sent no op', () => {
    const event: NodeEvent = {
      txid,
      event_index: 0,
      committed: true,
      type: 'stx_transfer_event',
      stx_transfer_event: { sender: RECIPIENT, recipient: SENDER, amount: '2000' },
    };
    const decoded = decodeBurnchainTransaction(undefined, [event], 'mainnet');
    expect(decoded.sender_address).to.equal(RECIPIENT);
    expect(decoded.payload).to.deep.equal({
      type: 'token_transfer',
      recipient: SENDER,
      amount: '2000',
      memo: '0x',
    });
  });

  it('rebuilds a pox stack-stx from its lock event when an old node sent no op', () => {
    const event: NodeEvent = {
      txid,
      event_index: 0,
      committed: true,
      type: 'stx_lock_event',
      stx_lock_event: { locked_amount: '7', unlock_height: '670250', locked_address: SENDER },
    };
    const decoded = decodeBurnchainTransaction(undefined, [event], 'mainnet');
    expect(decoded.sender_address).to.equal(SENDER);
    expect(decoded.payload).to.include({ contract_identifier: `${BOOT}.pox`, function_name: 'stack-stx' });
  });

  it('attributes a failed operation with neither op nor event to the boot address', () => {
    const decoded = decodeBurnchainTransaction(undefined, [], 'mainnet');
    expect(decoded.sender_address).to.equal(BOOT);
    expect(decoded.payload).to.include({ contract_identifier: `${BOOT}.pox`, function_name: 'stack-stx' });
  });
});
