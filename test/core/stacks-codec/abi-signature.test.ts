import { expect } from 'chai';
import { abiTypeName, functionArgTypes } from '../../../core/stacks-codec/abi-signature.js';
import { type ContractAbi } from '../../../core/chain/contract-abi.js';

const abi: ContractAbi = {
  functions: [
    {
      name: 'stack-stx',
      access: 'public',
      args: [
        { name: 'amount-ustx', type: 'uint128' },
        { name: 'pox-addr', type: { tuple: [{ name: 'version', type: { buffer: { length: 1 } } }] } },
      ],
      outputs: { type: { response: { ok: 'bool', error: 'int128' } } },
    },
  ],
};

describe('abiTypeName', () => {
  it('names the 128-bit integers uint and int', () => {
    expect(abiTypeName('uint128')).to.equal('uint');
    expect(abiTypeName('int128')).to.equal('int');
  });

  it('keeps the names of bool, principal, trait_reference and none', () => {
    expect(
      ['bool', 'principal', 'trait_reference', 'none'].map((t) => abiTypeName(t as 'bool')),
    ).to.deep.equal(['bool', 'principal', 'trait_reference', 'none']);
  });

  it('sizes buffers and strings', () => {
    expect(abiTypeName({ buffer: { length: 34 } })).to.equal('(buff 34)');
    expect(abiTypeName({ 'string-ascii': { length: 3 } })).to.equal('(string-ascii 3)');
    expect(abiTypeName({ 'string-utf8': { length: 12 } })).to.equal('(string-utf8 12)');
  });

  it('writes composite types as Clarity type signatures', () => {
    expect(abiTypeName({ optional: 'uint128' })).to.equal('(optional uint)');
    expect(abiTypeName({ response: { ok: 'bool', error: 'int128' } })).to.equal('(response bool int)');
    expect(abiTypeName({ list: { type: 'principal', length: 200 } })).to.equal('(list 200 principal)');
    expect(
      abiTypeName({
        tuple: [
          { name: 'hashbytes', type: { buffer: { length: 32 } } },
          { name: 'version', type: { buffer: { length: 1 } } },
        ],
      }),
    ).to.equal('(tuple (hashbytes (buff 32)) (version (buff 1)))');
  });

  it('rejects a type it does not know', () => {
    expect(() => abiTypeName({ map: 1 } as never)).to.throw(/unknown ABI type/);
  });
});

describe('functionArgTypes', () => {
  it("names and types a function's arguments from the ABI", () => {
    expect(functionArgTypes(abi, 'stack-stx', 2)).to.deep.equal([
      { name: 'amount-ustx', type: 'uint' },
      { name: 'pox-addr', type: '(tuple (version (buff 1)))' },
    ]);
  });

  it('knows nothing of a function the ABI lacks', () => {
    expect(functionArgTypes(abi, 'delegate-stx', 2)).to.equal(undefined);
  });

  it('knows nothing when the call has another number of arguments than the function', () => {
    expect(functionArgTypes(abi, 'stack-stx', 3)).to.equal(undefined);
  });
});
