import { expect } from 'chai';
import { AddressHashMode } from '@stacks/transactions';
import { addressVersion, bootAddress, transactionNetwork } from '../../../core/stacks-codec/network.js';
import { TEST_KEYS, addressOf, stxTransfer } from '../../support/block-builder.js';

describe('addressVersion', () => {
  it('gives single-sig P2PKH the SP version on mainnet and ST on testnet', () => {
    expect(addressVersion(AddressHashMode.P2PKH, 'mainnet')).to.equal(22);
    expect(addressVersion(AddressHashMode.P2PKH, 'testnet')).to.equal(26);
  });

  it('gives every other hash mode the multi-sig SM version on mainnet and SN on testnet', () => {
    for (const mode of [
      AddressHashMode.P2SH,
      AddressHashMode.P2WPKH,
      AddressHashMode.P2WSH,
      AddressHashMode.P2SHNonSequential,
      AddressHashMode.P2WSHNonSequential,
    ]) {
      expect(addressVersion(mode, 'mainnet'), `mode ${mode}`).to.equal(20);
      expect(addressVersion(mode, 'testnet'), `mode ${mode}`).to.equal(21);
    }
  });
});

describe('bootAddress', () => {
  it('is the all-zero address of the network', () => {
    expect(bootAddress('mainnet')).to.equal('SP000000000000000000002Q6VF78');
    expect(bootAddress('testnet')).to.equal('ST000000000000000000002AMW42H');
  });
});

describe('transactionNetwork', () => {
  it('reads the network a signed transaction was made for from its version byte', async () => {
    for (const network of ['mainnet', 'testnet'] as const) {
      const tx = await stxTransfer({ recipient: addressOf(TEST_KEYS.bob, network), amount: 1n, network });
      expect(transactionNetwork(tx.transaction.raw_tx), network).to.equal(network);
    }
  });

  it('tells nothing of a Bitcoin-originated operation, other versions or bytes that are no transaction', () => {
    for (const raw of ['0x00', '0x01000000', '0x', 'deadbeef', null, 7])
      expect(transactionNetwork(raw), String(raw)).to.equal(undefined);
  });
});
