import type { EventFilter, HookDefinition } from '../../../core/hooks/definition.js';

/** A standard principal in c32 (41 characters). */
export const ADDRESS = 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7';
export const OTHER_ADDRESS = 'ST1PQHQKV0RJXZFY1DGX8MNSNYVE3VGZJSRTPGZGM';
export const CONTRACT = `${ADDRESS}.my-token`;
export const ASSET = `${CONTRACT}::my-token`;
export const UUID = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';

/** One filter of each of the 18 types, with every narrowing field it takes. */
export const FILTER_OF_EACH_TYPE: readonly EventFilter[] = [
  { type: 'ft_transfer', asset_identifier: ASSET, sender: ADDRESS, receiver: CONTRACT },
  { type: 'ft_mint', asset_identifier: ASSET, receiver: ADDRESS },
  { type: 'ft_burn', asset_identifier: ASSET, sender: ADDRESS },
  { type: 'ft_event', asset_identifier: ASSET },
  { type: 'nft_transfer', asset_identifier: ASSET, value: 7, sender: ADDRESS, receiver: OTHER_ADDRESS },
  { type: 'nft_mint', asset_identifier: ASSET, value: 'u7', receiver: ADDRESS },
  {
    type: 'nft_burn',
    asset_identifier: ASSET,
    value: '0x0100000000000000000000000000000007',
    sender: ADDRESS,
  },
  { type: 'nft_event', asset_identifier: ASSET, value: '"name"' },
  { type: 'stx_transfer', sender: ADDRESS, receiver: CONTRACT },
  { type: 'stx_mint', receiver: ADDRESS },
  { type: 'stx_burn', sender: ADDRESS },
  { type: 'stx_event' },
  { type: 'contract_deploy', contract_identifier: CONTRACT, sender: ADDRESS },
  { type: 'contract_call', contract_identifier: CONTRACT, function_name: 'transfer', sender: ADDRESS },
  { type: 'contract_log', contract_identifier: CONTRACT, sender: ADDRESS },
  { type: 'coinbase' },
  { type: 'tenure_change', cause: 'block_found' },
  { type: 'balance_change', principal: CONTRACT },
];

/** A valid definition; `changes` replace its top-level fields. */
export function definitionWith(changes: Record<string, unknown> = {}): HookDefinition {
  return {
    name: 'my hook',
    version: '1',
    chain: 'stacks',
    network: 'mainnet',
    filters: { events: [{ type: 'ft_transfer', asset_identifier: ASSET }] },
    action: { type: 'http_post', url: 'https://example.com/hooks' },
    ...changes,
  } as HookDefinition;
}

/** A valid definition whose only filter is `filter`. */
export function definitionWithFilter(filter: Record<string, unknown>): HookDefinition {
  return definitionWith({ filters: { events: [filter] } });
}
