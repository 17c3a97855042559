// Hooks registered as Chainhook 1.x predicates, for the live-step bench: the same hook set as the
// 2.0 one (the first `matching` follow the FT every block moves), as `ft_event` scopes.
import type { StacksPredicate } from '../../core/chainhook-v1/predicate.js';
import type { HookDefinition } from '../../core/hooks/definition.js';
import { createHook } from '../../core/hooks/lifecycle.js';
import type { StoredHook } from '../../core/hooks/record.js';

/** `count` 1.x predicates of one owner; the first `matching` watch `ft`, the rest a token of `issuer` no block moves. */
export function v1HookSet(count: number, matching: number, ft: string, issuer: string): StoredHook[] {
  const out: StoredHook[] = [];
  for (let i = 0; i < count; i++) {
    const uuid = `v1-bench-${i}`;
    const predicate: StacksPredicate = {
      uuid,
      name: uuid,
      version: 1,
      chain: 'stacks',
      networks: {
        mainnet: {
          if_this: {
            scope: 'ft_event',
            asset_identifier: i < matching ? ft : `${issuer}.token-${i}::t${i}`,
            actions: ['transfer'],
          },
          then_that: { http_post: { url: 'https://receiver.example/v1', authorization_header: 'Bearer b' } },
        },
      },
    };
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
