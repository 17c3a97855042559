import type { NormalizedBlock } from '../chain/block.js';
import type { StacksScope } from './predicate.js';
import { scopeMatcher, type ScopeMatch, type ScopeMatcher } from './scope-matcher.js';

/**
 * The live 1.x scopes, keyed so that a block runs only the scopes it could satisfy: a scope that
 * names an asset, a called contract, a printing contract or a txid waits under that key, and a
 * block looks up the keys its transactions carry; the others (`stx_event`, `block_height`,
 * `contract_deployment`, a `print_event` of any contract) run on every block. A key is only a
 * prefilter: each candidate's compiled scope still decides, so the index takes exactly what
 * running every scope would.
 */
export class ScopeIndex {
  private readonly matchers = new Map<string, { match: ScopeMatcher; key: string | undefined }>();
  private readonly byKey = new Map<string, Set<string>>();
  private readonly everyBlock = new Set<string>();

  /** Hold (or replace) the scope of `uuid`. */
  set(uuid: string, scope: StacksScope): void {
    this.delete(uuid);
    const key = keyOf(scope);
    this.matchers.set(uuid, { match: scopeMatcher(scope), key });
    if (key === undefined) this.everyBlock.add(uuid);
    else {
      let uuids = this.byKey.get(key);
      if (!uuids) this.byKey.set(key, (uuids = new Set()));
      uuids.add(uuid);
    }
  }

  /** Forget the scope of `uuid`. */
  delete(uuid: string): void {
    const held = this.matchers.get(uuid);
    if (!held) return;
    this.matchers.delete(uuid);
    if (held.key === undefined) this.everyBlock.delete(uuid);
    else {
      const uuids = this.byKey.get(held.key)!;
      uuids.delete(uuid);
      if (uuids.size === 0) this.byKey.delete(held.key);
    }
  }

  /** The uuids whose scopes are held, in the order they were set. */
  keys(): IterableIterator<string> {
    return this.matchers.keys();
  }

  /** How many scopes are held. */
  get size(): number {
    return this.matchers.size;
  }

  /** Call `found` for each scope the block satisfies, with what it took. */
  forEachMatch(block: NormalizedBlock, found: (uuid: string, match: NonNullable<ScopeMatch>) => void): void {
    if (this.matchers.size === 0) return;
    const candidates = new Set(this.everyBlock);
    if (this.byKey.size > 0) {
      for (const key of blockKeys(block)) for (const uuid of this.byKey.get(key) ?? []) candidates.add(uuid);
    }
    for (const uuid of candidates) {
      const hit = this.matchers.get(uuid)!.match(block);
      if (hit) found(uuid, hit);
    }
  }
}

function keyOf(scope: StacksScope): string | undefined {
  switch (scope.scope) {
    case 'txid':
      return `tx:${scope.equals}`;
    case 'ft_event':
    case 'nft_event':
      return `asset:${scope.asset_identifier}`;
    case 'contract_call':
      return `call:${scope.contract_identifier}`;
    case 'print_event':
      return scope.contract_identifier === '*' ? undefined : `print:${scope.contract_identifier}`;
    default:
      return undefined;
  }
}

// Every key a scope satisfied by this block could wait under: a superset, since the scopes decide.
function blockKeys(block: NormalizedBlock): Set<string> {
  const keys = new Set<string>();
  for (const tx of block.transactions) {
    keys.add(`tx:${tx.transaction_identifier.hash.toLowerCase()}`);
    if (tx.payload.type === 'contract_call') keys.add(`call:${tx.payload.contract_identifier}`);
    for (const event of tx.events) {
      if (event.type === 'contract_log') keys.add(`print:${event.contract_identifier}`);
      else if ('asset_identifier' in event) keys.add(`asset:${event.asset_identifier}`);
    }
  }
  return keys;
}
