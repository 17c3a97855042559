import type { Network } from '../../core/hooks/definition.js';

/** The server's configuration, read once from the environment and flags and passed down as a value. */
export type ServerConfig = {
  /** STACKHOOKS_PORT / --port: the API's TCP port (default 3000). */
  port: number;
  /** STACKHOOKS_HOST / --host: the API's bind address (default 0.0.0.0). */
  host: string;
  /** STACKHOOKS_DATA_DIR / --data-dir: where the embedded stores live (default ./data). */
  dataDir: string;
  /** STACKHOOKS_NETWORK / --network: mainnet or testnet (default mainnet). */
  network: Network;
  /** STACKHOOKS_API_KEY: a key registered for owner `default` at start (for scripts and tests). */
  apiKey: string | undefined;
  /** STACKHOOKS_MAX_HOOKS_PER_OWNER: hooks one owner may hold (default 1000). */
  maxHooksPerOwner: number;
  /** STACKHOOKS_RATE_LIMIT_PER_MINUTE: requests one key may make a minute (default 600). */
  requestsPerMinute: number;
  /** STACKHOOKS_OBSERVER_PORT: where a stacks-node `[[events_observer]]` posts (default 20455). */
  observerPort: number;
  /** STACKHOOKS_OBSERVER_HOST: the observer's bind address (default 127.0.0.1: a node is local). */
  observerHost: string;
  /** STACKHOOKS_SHUTDOWN_GRACE_MS: how long SIGTERM waits for requests in flight (default 10000). */
  shutdownGraceMs: number;
};

/** A configuration problem, named so the operator can fix it. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

type Source = Record<string, string | undefined>;

const FLAGS: Record<string, string> = {
  '--port': 'STACKHOOKS_PORT',
  '--host': 'STACKHOOKS_HOST',
  '--data-dir': 'STACKHOOKS_DATA_DIR',
  '--network': 'STACKHOOKS_NETWORK',
};

/** Read the configuration from environment variables, with `--flag value` overriding them. */
export function readServerConfig(env: Source = process.env, argv: string[] = []): ServerConfig {
  const source: Source = { ...env, ...parseFlags(argv) };
  const network = source.STACKHOOKS_NETWORK ?? 'mainnet';
  if (network !== 'mainnet' && network !== 'testnet') {
    throw new ConfigError(`STACKHOOKS_NETWORK must be mainnet or testnet, got "${network}"`);
  }
  return {
    port: integer(source, 'STACKHOOKS_PORT', 3000, 0, 65535),
    host: source.STACKHOOKS_HOST || '0.0.0.0',
    dataDir: source.STACKHOOKS_DATA_DIR || './data',
    network,
    apiKey: source.STACKHOOKS_API_KEY || undefined,
    maxHooksPerOwner: integer(source, 'STACKHOOKS_MAX_HOOKS_PER_OWNER', 1000, 1, 10_000_000),
    requestsPerMinute: integer(source, 'STACKHOOKS_RATE_LIMIT_PER_MINUTE', 600, 1, 10_000_000),
    observerPort: integer(source, 'STACKHOOKS_OBSERVER_PORT', 20455, 0, 65535),
    observerHost: source.STACKHOOKS_OBSERVER_HOST || '127.0.0.1',
    shutdownGraceMs: integer(source, 'STACKHOOKS_SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
  };
}

function parseFlags(argv: string[]): Source {
  const out: Source = {};
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    const name = FLAGS[flag];
    if (!name) throw new ConfigError(`unknown option ${flag}; known: ${Object.keys(FLAGS).join(', ')}`);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new ConfigError(`${flag} needs a value`);
    out[name] = value;
  }
  return out;
}

function integer(source: Source, name: string, fallback: number, min: number, max: number): number {
  const raw = source[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}
