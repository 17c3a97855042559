import type { ApiKeyRecord } from '../../core/accounts/api-key.js';
import type { AccountStore } from '../../core/ports/account-store.js';
import type { Database } from './database.js';

type KeyRow = { id: string; owner: string; hash: string; created_at: string; revoked_at: string | null };

const KEY_COLUMNS = 'id, owner, hash, created_at, revoked_at';

/** API keys (hashes only) and consumer secrets in Postgres; each call is one statement, so each is atomic. */
export class PgAccountStore implements AccountStore {
  constructor(private readonly db: Database) {}

  /** Store a new key record; a repeated id or hash is refused by the table's constraints. */
  async addKey(key: ApiKeyRecord): Promise<void> {
    await this.db.pool.query(`INSERT INTO api_keys (${KEY_COLUMNS}) VALUES ($1, $2, $3, $4, $5)`, [
      key.id,
      key.owner,
      key.hash,
      key.created_at,
      key.revoked_at,
    ]);
  }

  /** The key with this SHA-256 hash, revoked or not, or undefined. */
  async findKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const { rows } = await this.db.pool.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE hash = $1`, [
      hash,
    ]);
    return rows.length === 0 ? undefined : toKey(rows[0]);
  }

  /** Every key record, oldest first; keys created in the same second keep the order they were added. */
  async listKeys(): Promise<ApiKeyRecord[]> {
    const { rows } = await this.db.pool.query<KeyRow>(
      `SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY created_at, seq`,
    );
    return rows.map(toKey);
  }

  /** Mark a key revoked at `atSeconds`; false when no active key has that id. */
  async revokeKey(id: string, atSeconds: number): Promise<boolean> {
    const { rowCount } = await this.db.pool.query(
      'UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL',
      [id, atSeconds],
    );
    return rowCount === 1;
  }

  /** The owner's consumer secret, or null when none is set. */
  async getConsumerSecret(owner: string): Promise<string | null> {
    const { rows } = await this.db.pool.query<{ secret: string }>({
      // Named: a worker reads it for every batch it sends, so each connection plans it once.
      name: 'stackhooks_consumer_secret',
      text: 'SELECT secret FROM consumer_secrets WHERE owner = $1',
      values: [owner],
    });
    return rows[0]?.secret ?? null;
  }

  /** Set or (with null) remove the owner's consumer secret. */
  async setConsumerSecret(owner: string, secret: string | null): Promise<void> {
    if (secret === null) {
      await this.db.pool.query('DELETE FROM consumer_secrets WHERE owner = $1', [owner]);
      return;
    }
    await this.db.pool.query(
      `INSERT INTO consumer_secrets (owner, secret) VALUES ($1, $2)
       ON CONFLICT (owner) DO UPDATE SET secret = EXCLUDED.secret`,
      [owner, secret],
    );
  }
}

/** A key record from its row; bigint arrives as a string, and unix seconds are safe as numbers. */
function toKey(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    owner: row.owner,
    hash: row.hash,
    created_at: Number(row.created_at),
    revoked_at: row.revoked_at === null ? null : Number(row.revoked_at),
  };
}
