import { inject, injectable } from 'inversify';
import type { ApiKeyRecord } from '../../core/accounts/api-key.js';
import type { AccountStore } from '../../core/ports/account-store.js';
import { STORE_FILE } from './store-file.js';
import type { StoreFile } from './store-file.js';

/** API keys and consumer secrets in the embedded JSON file; results are copies of the stored records. */
@injectable()
export class LowdbAccountStore implements AccountStore {
  constructor(@inject(STORE_FILE) private readonly file: StoreFile) {}

  /** Store a new key record; a repeated id or hash is refused with an error. */
  async addKey(key: ApiKeyRecord): Promise<void> {
    const copy = structuredClone(key);
    await this.file.change(({ keys }) => {
      keys.add(copy);
      return { result: undefined, changed: true };
    });
  }

  /** The key with this hash, revoked or not, or undefined; O(1). */
  async findKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const key = this.file.state.keys.byHash(hash);
    return key && structuredClone(key);
  }

  /** Every key record, oldest first by `created_at`, then in the order they were added. */
  async listKeys(): Promise<ApiKeyRecord[]> {
    const keys = Array.from(this.file.state.keys.all(), (key) => structuredClone(key));
    return keys.sort((a, b) => a.created_at - b.created_at);
  }

  /** Mark a key revoked at `atSeconds`; false when no active key has that id. */
  async revokeKey(id: string, atSeconds: number): Promise<boolean> {
    return this.file.change(({ keys }) => {
      const key = keys.byId(id);
      if (!key || key.revoked_at != null) return { result: false, changed: false };
      keys.replace({ ...key, revoked_at: atSeconds });
      return { result: true, changed: true };
    });
  }

  /** The owner's consumer secret (hex), or null when none is set. */
  async getConsumerSecret(owner: string): Promise<string | null> {
    return this.file.state.consumerSecrets.get(owner) ?? null;
  }

  /** Set or (with null) remove the owner's consumer secret. */
  async setConsumerSecret(owner: string, secret: string | null): Promise<void> {
    await this.file.change(({ consumerSecrets }) => {
      if (secret === null) return { result: undefined, changed: consumerSecrets.delete(owner) };
      if (consumerSecrets.get(owner) === secret) return { result: undefined, changed: false };
      consumerSecrets.set(owner, secret);
      return { result: undefined, changed: true };
    });
  }
}
