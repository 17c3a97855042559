import { expect } from 'chai';
import { isAbiType, readContractAbi } from '../../../core/contracts/abi-shape.js';
import { BOOT_CONTRACT_NAMES, bootContractAbi } from '../../../core/contracts/boot-contracts.js';

const fn = (type: unknown) => ({ functions: [{ name: 'f', access: 'public', args: [{ name: 'a', type }] }] });

describe('readContractAbi', () => {
  it('takes every shipped boot-contract ABI', () => {
    for (const name of BOOT_CONTRACT_NAMES) {
      const abi = bootContractAbi(`SP000000000000000000002Q6VF78.${name}`, 'mainnet');
      expect(readContractAbi(JSON.parse(JSON.stringify(abi))), name).to.deep.equal(abi);
    }
  });

  it('refuses what is not an object with a list of functions', () => {
    for (const body of [null, 'abi', [], {}, { functions: {} }, { functions: [null] }]) {
      expect(readContractAbi(body), JSON.stringify(body)).to.equal(undefined);
    }
  });

  it('refuses a function without a name or an argument list, and an argument without a name', () => {
    expect(readContractAbi({ functions: [{ args: [] }] })).to.equal(undefined);
    expect(readContractAbi({ functions: [{ name: 'f' }] })).to.equal(undefined);
    expect(readContractAbi({ functions: [{ name: 'f', args: [{ type: 'bool' }] }] })).to.equal(undefined);
  });

  it('refuses an argument type that is not a Clarity ABI type', () => {
    for (const type of [
      'uint',
      { map: 1 },
      { buffer: { length: -1 } },
      { list: { type: 'bool' } },
      { tuple: {} },
    ]) {
      expect(readContractAbi(fn(type)), JSON.stringify(type)).to.equal(undefined);
    }
  });
});

describe('isAbiType', () => {
  it('takes nested types and refuses nesting past twice Clarity’s limit', () => {
    let deep: unknown = 'bool';
    for (let i = 0; i < 64; i++) deep = { optional: deep };
    expect(isAbiType(deep)).to.equal(true);
    expect(isAbiType({ optional: deep })).to.equal(false);
  });
});
