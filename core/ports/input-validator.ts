import type { HookDefinition, HookDefinitionUpdate } from '../hooks/definition.js';
import type { HookStatusValue } from '../hooks/record.js';

/** The request shapes the contract in `spec/` defines, by schema name. */
export type InputShapes = {
  definition: HookDefinition;
  'definition-update': HookDefinitionUpdate;
  enable: { enabled: boolean; resume?: boolean };
  'bulk-enable': {
    enabled: boolean;
    filters?: { uuids?: string[]; webhook_url?: string; statuses?: HookStatusValue[] };
  };
  evaluate: { block_height?: number; index_block_hash?: string };
  'list-query': { offset: number; limit: number; name?: string; status?: HookStatusValue; enabled?: boolean };
  uuid: string;
  'deliveries-query': { state?: 'pending' | 'delivered' | 'failed'; offset: number; limit: number };
  'delivery-id': string;
  'backfill-request': { from_block_height: number; to_block_height?: number };
  'backfill-id': string;
};

export type InputName = keyof InputShapes;

/**
 * Checks input against the machine-readable contract. Returns the value (with defaults applied) or
 * throws a `validation` StackhooksError whose details name every field that is wrong.
 */
export interface InputValidator {
  /** Check `value` against the named schema. */
  check<K extends InputName>(name: K, value: unknown): InputShapes[K];
}

export const INPUT_VALIDATOR = Symbol.for('stackhooks.InputValidator');
