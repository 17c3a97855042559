import type { ApiKeyRecord } from '../accounts/api-key.js';

/** Owners' API keys (hashes only) and consumer secrets. */
export interface AccountStore {
  /** Store a new key record. */
  addKey(key: ApiKeyRecord): Promise<void>;
  /** The key with this SHA-256 hash, revoked or not, or undefined. */
  findKeyByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  /** Every key record, oldest first. */
  listKeys(): Promise<ApiKeyRecord[]>;
  /** Mark a key revoked at `atSeconds`; false when no active key has that id. */
  revokeKey(id: string, atSeconds: number): Promise<boolean>;
  /** The owner's consumer secret (hex), or null when none is set. */
  getConsumerSecret(owner: string): Promise<string | null>;
  /** Set or (with null) remove the owner's consumer secret. */
  setConsumerSecret(owner: string, secret: string | null): Promise<void>;
}

export const ACCOUNT_STORE = Symbol.for('stackhooks.AccountStore');
