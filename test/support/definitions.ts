import type { ChainhookDefinition } from '@hirosystems/chainhooks-client';

/** A valid mainnet definition with one FT filter, typed as the official client takes it; pass fields to override. */
export function sampleDefinition(overrides: Partial<ChainhookDefinition> = {}): ChainhookDefinition {
  return {
    name: 'sbtc transfers',
    version: '1',
    chain: 'stacks',
    network: 'mainnet',
    filters: {
      events: [
        {
          type: 'ft_transfer',
          asset_identifier: 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token::sbtc-token',
        },
      ],
    },
    // Port 9 (discard) on loopback: nothing listens, so a stray delivery goes nowhere.
    action: { type: 'http_post', url: 'http://127.0.0.1:9/webhooks/stacks' },
    options: { decode_clarity_values: true },
    ...overrides,
  };
}
