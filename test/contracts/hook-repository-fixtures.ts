import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { HookDefinition } from '../../core/hooks/definition.js';
import { createHook } from '../../core/hooks/lifecycle.js';
import type { StoredHook } from '../../core/hooks/record.js';
import type { HookRepository } from '../../core/ports/hook-repository.js';

export const URL_A = 'https://a.example.com/hook';
export const URL_B = 'https://b.example.com/hook';
let clockMs = 1_700_000_000_000;

/** Set aside `ms` milliseconds of the hooks' clock; returns where they start. */
export function reserveMs(ms: number): number {
  const base = clockMs;
  clockMs += ms;
  return base;
}

/** A definition posting to `url`. */
export function definition(url: string): HookDefinition {
  return {
    name: 'contract test',
    version: '1',
    chain: 'stacks',
    network: 'mainnet',
    filters: { events: [{ type: 'stx_transfer' }] },
    action: { type: 'http_post', url },
  };
}

/** A new hook; each call is a millisecond later than the last unless `atMs` says otherwise. */
export function newHook(
  owner: string,
  options: { url?: string; atMs?: number; uuid?: string } = {},
): StoredHook {
  return createHook(
    owner,
    options.uuid ?? randomUUID(),
    definition(options.url ?? URL_A),
    options.atMs ?? clockMs++,
  );
}

/** The hook as the stream shows it once enabled and streaming. */
export function streaming(hook: StoredHook): StoredHook {
  return { ...hook, status: { ...hook.status, status: 'streaming', enabled: true } };
}

/** The hook with one more occurrence counted. */
export function countOccurrence(hook: StoredHook): StoredHook {
  return { ...hook, status: { ...hook.status, occurrence_count: hook.status.occurrence_count + 1 } };
}

/** Insert each hook, expecting every insert to be taken. */
export async function insertAll(repo: HookRepository, hooks: StoredHook[]): Promise<void> {
  for (const hook of hooks) expect(await repo.insert(hook, 1000)).to.deep.equal(hook);
}

/** The hooks' uuids, in order. */
export const uuidsOf = (hooks: StoredHook[]): string[] => hooks.map((hook) => hook.uuid);
