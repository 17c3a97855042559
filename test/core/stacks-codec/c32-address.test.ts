import { expect } from 'chai';
import fc from 'fast-check';
import { addressFromVersionHash, addressToString } from '@stacks/transactions';
import { encodeC32Address } from '../../../core/stacks-codec/c32-address.js';

/** 20 bytes as hex, often starting with zero bytes (which c32check spells out as leading 0s). */
const hash160 = fc
  .tuple(fc.integer({ min: 0, max: 20 }), fc.uint8Array({ minLength: 20, maxLength: 20 }))
  .map(([zeros, bytes]) => Buffer.from(bytes.map((b, i) => (i < zeros ? 0 : b))).toString('hex'));

describe('encodeC32Address', () => {
  it('encodes the boot address of mainnet and of testnet', () => {
    expect(encodeC32Address(22, '0'.repeat(40))).to.equal('SP000000000000000000002Q6VF78');
    expect(encodeC32Address(26, '0'.repeat(40))).to.equal('ST000000000000000000002AMW42H');
  });

  it("gives c32check's address for any version and hash160", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 31 }), hash160, fc.boolean(), (version, hash, upper) => {
        const given = upper ? hash.toUpperCase() : hash;
        expect(encodeC32Address(version, given)).to.equal(
          addressToString(addressFromVersionHash(version, hash)),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses a version outside 0–31 and a hash that is not 20 bytes of hex', () => {
    expect(() => encodeC32Address(32, '0'.repeat(40))).to.throw(/version 32/);
    expect(() => encodeC32Address(22, '0'.repeat(38))).to.throw(/hash160/);
    expect(() => encodeC32Address(22, 'zz'.repeat(20))).to.throw(/hash160/);
  });
});
