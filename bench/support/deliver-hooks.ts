// What the delivery bench registers and ingests: hooks that match every block, hooks of many filter
// types that never match these blocks (as 2.0 hooks, or as Chainhook 1.x predicates with `--v1`),
// and a chain of blocks with one real signed STX transfer each.
import type { Stackhooks } from '../../apps/server/container.js';
import type { HookDefinition, EventFilter } from '../../core/hooks/definition.js';
import {
  ChainBuilder,
  TEST_KEYS,
  addressOf,
  stxTransfer,
  type NodeBlock,
} from '../../test/support/block-builder.js';
import { matchingPredicate, nonMatchingPredicate } from './v1-hooks.js';

/** Which API the bench registers its hooks through: 2.0's hooks API, or Chainhook 1.x's predicates API. */
export type HookApi = 'v2' | 'v1';

/** An enabled mainnet hook on every STX event (each bench block has one), posting to `url`. */
export function matchingDefinition(name: string, url: string): HookDefinition {
  return {
    name,
    version: '1',
    chain: 'stacks',
    network: 'mainnet',
    filters: { events: [{ type: 'stx_event' }] },
    action: { type: 'http_post', url },
    options: { enable_on_registration: true },
  };
}

// Deriving an address is a secp256k1 multiplication: once is enough.
let carolAddress: string | undefined;

/**
 * An enabled hook that none of the bench blocks match (alice pays bob in every block; these watch
 * tokens, contracts, coinbases, tenures and carol), its filter type chosen by `i` so that the
 * matcher's index holds a realistic mix.
 */
export function nonMatchingDefinition(i: number, url: string): HookDefinition {
  const carol = (carolAddress ??= addressOf(TEST_KEYS.carol));
  const contract = `${carol}.bench-${i}`;
  const asset = `${contract}::token-${i}`;
  const filters: EventFilter[] = [
    { type: 'ft_transfer', asset_identifier: asset },
    { type: 'ft_mint', asset_identifier: asset },
    { type: 'ft_burn', sender: carol },
    { type: 'ft_event', asset_identifier: asset },
    { type: 'nft_transfer', asset_identifier: asset, value: i },
    { type: 'nft_mint', asset_identifier: asset },
    { type: 'nft_burn', asset_identifier: asset },
    { type: 'nft_event', asset_identifier: asset },
    { type: 'stx_transfer', sender: carol },
    { type: 'stx_mint', receiver: carol },
    { type: 'stx_burn', sender: carol },
    { type: 'contract_deploy', contract_identifier: contract },
    { type: 'contract_call', contract_identifier: contract, function_name: 'transfer' },
    { type: 'contract_log', contract_identifier: contract },
    { type: 'coinbase' },
    { type: 'tenure_change' },
    { type: 'balance_change', principal: carol },
  ];
  return {
    name: `never ${i}`,
    version: '1',
    chain: 'stacks',
    network: 'mainnet',
    filters: { events: [filters[i % filters.length]] },
    action: { type: 'http_post', url },
    options: { enable_on_registration: true },
  };
}

/** Register for `owner` a hook through `api` on every STX transfer, posting to `url`; returns its uuid. */
export async function registerMatching(
  stackhooks: Stackhooks,
  api: HookApi,
  owner: string,
  name: string,
  url: string,
): Promise<string> {
  if (api === 'v1') return stackhooks.predicates.register(owner, matchingPredicate(name, url));
  return (await stackhooks.registry.register(owner, matchingDefinition(name, url))).uuid;
}

/** Register for `owner` a hook through `api` that none of the bench blocks match (see `nonMatchingDefinition`). */
export async function registerNonMatching(
  stackhooks: Stackhooks,
  api: HookApi,
  owner: string,
  i: number,
  url: string,
): Promise<string> {
  if (api === 'v1') {
    const carol = (carolAddress ??= addressOf(TEST_KEYS.carol));
    return stackhooks.predicates.register(owner, nonMatchingPredicate(i, carol, url));
  }
  return (await stackhooks.registry.register(owner, nonMatchingDefinition(i, url))).uuid;
}

/** `count` chained blocks, each with one signed STX transfer from alice to bob (nonces 0, 1, ...). */
export async function transferBlocks(count: number, label = 'bench-deliver'): Promise<NodeBlock[]> {
  const chain = new ChainBuilder({ label });
  const bob = addressOf(TEST_KEYS.bob);
  const blocks: NodeBlock[] = [];
  for (let i = 0; i < count; i++) {
    const transfer = await stxTransfer({ recipient: bob, amount: BigInt(1_000 + i), nonce: i });
    blocks.push(chain.next({ transactions: [transfer] }));
  }
  return blocks;
}
