import { createHash } from 'node:crypto';
import { inject, injectable } from 'inversify';
import { OWNER_PATTERN, type ApiKeyRecord, type IssuedApiKey } from '../accounts/api-key.js';
import { StackhooksError, invalidInput } from '../hooks/errors.js';
import { toUnixSeconds } from '../hooks/lifecycle.js';
import { ACCOUNT_STORE, type AccountStore } from '../ports/account-store.js';
import { CLOCK, type Clock } from '../ports/clock.js';
import { ID_SOURCE, type IdSource } from '../ports/id-source.js';

/** A key given from outside (STACKHOOKS_API_KEY) must be at least this long to be worth guessing against. */
export const MIN_API_KEY_LENGTH = 16;

/** The SHA-256 hash under which a key is stored; the plaintext never is. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** A key's public id: derived from its hash, so a key given from outside gets one too. */
export function apiKeyId(hash: string): string {
  return `key_${hash.slice(0, 16)}`;
}

/** Issue, register, list, revoke and check API keys; each key belongs to one owner. */
@injectable()
export class ApiKeys {
  constructor(
    @inject(ACCOUNT_STORE) private readonly accounts: AccountStore,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(ID_SOURCE) private readonly ids: IdSource,
  ) {}

  /** A new random key for `owner`, shown this once. */
  async issue(owner: string): Promise<IssuedApiKey> {
    checkOwner(owner);
    const key = `shk_${this.ids.randomHex(32)}`;
    const record = this.recordFor(owner, key);
    await this.accounts.addKey(record);
    return { id: record.id, owner, key, created_at: record.created_at };
  }

  /** Register a key chosen outside (for scripts and tests); an already known key is left as it is. */
  async register(owner: string, key: string): Promise<ApiKeyRecord> {
    checkOwner(owner);
    if (key.length < MIN_API_KEY_LENGTH || /\s/.test(key)) {
      throw invalidInput([
        { field: 'api key', message: `must be at least ${MIN_API_KEY_LENGTH} characters without spaces` },
      ]);
    }
    const known = await this.accounts.findKeyByHash(hashApiKey(key));
    if (known) return known;
    const record = this.recordFor(owner, key);
    await this.accounts.addKey(record);
    return record;
  }

  /** When the store holds no key at all, issue the first one for owner `default`. */
  async issueFirstKeyIfNone(): Promise<IssuedApiKey | undefined> {
    if ((await this.accounts.listKeys()).length > 0) return undefined;
    return this.issue('default');
  }

  /** The owner of an active key; a missing, unknown or revoked key is `unauthorized`. */
  async authenticate(key: string | undefined): Promise<{ owner: string; keyId: string }> {
    if (!key) throw new StackhooksError('unauthorized', 'missing x-api-key header');
    const record = await this.accounts.findKeyByHash(hashApiKey(key));
    if (!record || record.revoked_at !== null)
      throw new StackhooksError('unauthorized', 'unknown or revoked API key');
    return { owner: record.owner, keyId: record.id };
  }

  /** Every key's public fields (never a hash), oldest first. */
  async list(): Promise<Omit<ApiKeyRecord, 'hash'>[]> {
    return (await this.accounts.listKeys()).map(({ hash: _hash, ...visible }) => visible);
  }

  /** Revoke a key by id; it stops working at once. */
  async revoke(id: string): Promise<void> {
    if (!(await this.accounts.revokeKey(id, toUnixSeconds(this.clock.now())))) {
      throw new StackhooksError('not_found', `no active key with id ${id}`);
    }
  }

  private recordFor(owner: string, key: string): ApiKeyRecord {
    const hash = hashApiKey(key);
    return { id: apiKeyId(hash), owner, hash, created_at: toUnixSeconds(this.clock.now()), revoked_at: null };
  }
}

function checkOwner(owner: string): void {
  if (!OWNER_PATTERN.test(owner)) {
    throw invalidInput([
      {
        field: 'owner',
        message: 'must be 1-128 letters, digits, ".", "_", "@" or "-", starting with a letter or digit',
      },
    ]);
  }
}
