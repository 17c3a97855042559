import { expect } from 'chai';
import { implementsTokenTrait } from '../../../core/chainhook-v1/token-traits.js';
import { SIP09_ABI, SIP10_ABI } from './token-abis.js';

describe('implementsTokenTrait', () => {
  it('knows a SIP-010 token and a SIP-009 NFT, and neither for the other', () => {
    expect(implementsTokenTrait(SIP10_ABI, 'sip10')).to.equal(true);
    expect(implementsTokenTrait(SIP09_ABI, 'sip09')).to.equal(true);
    expect(implementsTokenTrait(SIP10_ABI, 'sip09')).to.equal(false);
    expect(implementsTokenTrait(SIP09_ABI, 'sip10')).to.equal(false);
  });

  it('refuses a token whose transfer takes other arguments', () => {
    const functions = SIP10_ABI.functions.map((fn) =>
      fn.name === 'transfer' ? { ...fn, args: fn.args.slice(0, 3) } : fn,
    );
    expect(implementsTokenTrait({ ...SIP10_ABI, functions }, 'sip10')).to.equal(false);
  });

  it('refuses a token whose trait function is private', () => {
    const functions = SIP10_ABI.functions.map((fn) =>
      fn.name === 'get-balance' ? { ...fn, access: 'private' as const } : fn,
    );
    expect(implementsTokenTrait({ ...SIP10_ABI, functions }, 'sip10')).to.equal(false);
  });
});
