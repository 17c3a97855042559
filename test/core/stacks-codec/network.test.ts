import { expect } from 'chai';
import { AddressHashMode } from '@stacks/transactions';
import { addressVersion, bootAddress } from '../../../core/stacks-codec/network.js';

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
