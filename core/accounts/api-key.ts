/** An API key as stored: only the SHA-256 hash of the secret part is kept. */
export type ApiKeyRecord = {
  /** Public identifier, shown in listings and used to revoke. */
  id: string;
  owner: string;
  /** Hex SHA-256 of the full key string. */
  hash: string;
  created_at: number;
  revoked_at: number | null;
};

/** The one-time view of a new key: the plaintext is never stored and never shown again. */
export type IssuedApiKey = { id: string; owner: string; key: string; created_at: number };

/** Owner names: what a person would type on the command line, not a path or an expression. */
export const OWNER_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,127}$/;
