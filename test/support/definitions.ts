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
    action: { type: 'http_post', url: 'https://example.com/webhooks/stacks' },
    options: { decode_clarity_values: true },
    ...overrides,
  };
}
