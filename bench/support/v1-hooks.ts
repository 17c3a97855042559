// Chainhook 1.x predicates for the benches: the live-step bench's hook set (stored directly, the
// same set as the 2.0 one, as `ft_event` scopes), and the delivery bench's predicates (registered
// through the 1.x API: one on every STX transfer, and a mix of scopes the bench blocks never match).
import type { StacksPredicate, StacksScope } from '../../core/chainhook-v1/predicate.js';
import type { HookDefinition } from '../../core/hooks/definition.js';
import { createHook } from '../../core/hooks/lifecycle.js';
import type { StoredHook } from '../../core/hooks/record.js';

/** The `authorization_header` every bench predicate carries (1.x sends it as `Authorization`). */
export const V1_AUTHORIZATION = 'Bearer bench';

/** A 1.x predicate on mainnet: `if_this`, then post to `url` with `V1_AUTHORIZATION`. */
export function benchPredicate(uuid: string, ifThis: StacksScope, url: string): StacksPredicate {
  return {
    uuid,
    name: uuid,
    version: 1,
    chain: 'stacks',
    networks: {
      mainnet: {
        if_this: ifThis,
        then_that: { http_post: { url, authorization_header: V1_AUTHORIZATION } },
      },
    },
  };
}

/** `count` 1.x predicates of one owner; the first `matching` watch `ft`, the rest a token of `issuer` no block moves. */
export function v1HookSet(count: number, matching: number, ft: string, issuer: string): StoredHook[] {
  const out: StoredHook[] = [];
  for (let i = 0; i < count; i++) {
    const uuid = `v1-bench-${i}`;
    const predicate = benchPredicate(
      uuid,
      {
        scope: 'ft_event',
        asset_identifier: i < matching ? ft : `${issuer}.token-${i}::t${i}`,
        actions: ['transfer'],
      },
      'https://receiver.example/v1',
    );
    const definition: HookDefinition = {
      name: uuid,
      version: '1',
      chain: 'stacks',
      network: 'mainnet',
      filters: { events: [] },
      options: { enable_on_registration: true },
      action: { type: 'http_post', url: 'https://receiver.example/v1' },
      chainhook_v1: predicate,
    };
    out.push(createHook('chainhook-v1', uuid, definition, 1_700_000_000_000 + i));
  }
  return out;
}

/** A uuid 1.x accepts (letters, digits, `.`, `_`, `-`) made from a bench hook's name. */
export function predicateUuid(name: string): string {
  return `bench-${name.replace(/[^A-Za-z0-9._-]/g, '-')}`;
}

/** A predicate on every STX transfer (each delivery bench block has one), posting to `url`. */
export function matchingPredicate(name: string, url: string): StacksPredicate {
  return benchPredicate(predicateUuid(name), { scope: 'stx_event', actions: ['transfer'] }, url);
}

/**
 * A predicate none of the delivery bench blocks match (alice pays bob in every block), its scope
 * chosen by `i`: keyed ones (an asset, a contract, a txid) and ones run on every block.
 */
export function nonMatchingPredicate(i: number, issuer: string, url: string): StacksPredicate {
  const contract = `${issuer}.bench-${i}`;
  const scopes: StacksScope[] = [
    { scope: 'ft_event', asset_identifier: `${contract}::token-${i}`, actions: ['transfer'] },
    { scope: 'nft_event', asset_identifier: `${contract}::nft-${i}`, actions: ['mint'] },
    { scope: 'print_event', contract_identifier: contract, contains: 'bench' },
    { scope: 'contract_call', contract_identifier: contract, method: 'transfer' },
    { scope: 'txid', equals: `0x${i.toString(16).padStart(64, '0')}` },
    { scope: 'stx_event', actions: ['lock'] },
    { scope: 'contract_deployment', deployer: issuer },
  ];
  return benchPredicate(predicateUuid(`never-${i}`), scopes[i % scopes.length], url);
}
