import { DEFAULT_NODE_RPC_CONCURRENCY } from '../../adapters/node-rpc/index.js';
import { LOG_LEVELS, type LogLevel } from '../../adapters/system/index.js';
import { DEFAULT_RETRY_SCHEDULE_MS } from '../../core/delivery/retry-policy.js';
import type { Network } from '../../core/hooks/definition.js';
import {
  DEFAULT_CIRCUIT_OPEN_MS,
  DEFAULT_DELIVERED_BODY_RETENTION_MS,
  DEFAULT_DELIVERY_CONCURRENCY,
  DEFAULT_SLOW_AFTER_MS,
  DEFAULT_SLOW_CONCURRENCY,
} from './delivery-defaults.js';
import { parseDuration } from './delivery-loop.js';

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
  /** STACKHOOKS_ROLE / --role: all (default), api, ingest or worker; the last three need a database. */
  role: ServerRole;
  /** STACKHOOKS_DATABASE_URL: PostgreSQL for every store (`postgres://…[?schema=name]`); without it, the embedded default. */
  databaseUrl: string | undefined;
  /** STACKHOOKS_DATABASE_WAIT: how long to wait at start for a database that cannot be reached yet (default 60s). */
  databaseWaitMs: number;
  /** STACKHOOKS_API_KEY: a key registered for owner `default` at start (for scripts and tests). */
  apiKey: string | undefined;
  /** STACKHOOKS_MAX_HOOKS_PER_OWNER: hooks one owner may hold (default 1000). */
  maxHooksPerOwner: number;
  /** STACKHOOKS_RATE_LIMIT_PER_MINUTE: requests one key may make a minute (default 600). */
  requestsPerMinute: number;
  /** STACKHOOKS_OBSERVER_PORT / --observer-port: where a stacks-node `[[events_observer]]` posts (default 20455). */
  observerPort: number;
  /** STACKHOOKS_OBSERVER_HOST / --observer-host: the observer's bind address (default 127.0.0.1: a node is local). */
  observerHost: string;
  /** STACKHOOKS_ALLOW_PRIVATE_TARGETS: deliver to loopback/private/link-local addresses (local receivers). */
  allowPrivateTargets: boolean;
  /** STACKHOOKS_DELIVERY_CONCURRENCY: payloads in flight at once in the normal lane, across hooks (default 64). */
  deliveryConcurrency: number;
  /** STACKHOOKS_DELIVERY_SLOW_CONCURRENCY: payloads in flight at once in the slow lane (default 256). */
  deliverySlowConcurrency: number;
  /** STACKHOOKS_DELIVERY_SLOW_AFTER: an attempt running this long moves to the slow lane, with its hook (default 1s). */
  deliverySlowAfterMs: number;
  /** STACKHOOKS_DELIVERY_CIRCUIT_OPEN: how long an origin's circuit first stays open (default 30s, doubling up to 10m). */
  deliveryCircuitOpenMs: number;
  /** STACKHOOKS_DELIVERY_TIMEOUT: timeout of one attempt (default 10s). */
  deliveryTimeoutMs: number;
  /** STACKHOOKS_RETRY_SCHEDULE: wait before each attempt, comma-separated (default 0,1s,5s,30s,2m,10m,30m,1h). */
  retryScheduleMs: number[];
  /** STACKHOOKS_DELIVERY_LEASE: on Postgres, how long a worker holds a payload before another takes it over (default 60s). */
  deliveryLeaseMs: number;
  /** STACKHOOKS_DELIVERY_RETENTION: how long delivered and failed payloads stay in the log (default 7d). */
  deliveryRetentionMs: number;
  /** STACKHOOKS_DELIVERED_BODY_RETENTION / --delivered-body-retention: how long a delivered payload keeps its body for a redelivery (default 1h). */
  deliveredBodyRetentionMs: number;
  /** STACKHOOKS_SHUTDOWN_GRACE_MS: how long SIGTERM waits for requests in flight (default 10000). */
  shutdownGraceMs: number;
  /** STACKHOOKS_NODE_RPC_URL / --node-rpc-url: a stacks-node's RPC, asked for ABIs of contracts whose deploy was never seen. */
  nodeRpcUrl: string | undefined;
  /** STACKHOOKS_NODE_RPC_TIMEOUT: the longest anything waits on that node (default 2s). */
  nodeRpcTimeoutMs: number;
  /** STACKHOOKS_NODE_RPC_CONCURRENCY: requests to it out at once (default 128). */
  nodeRpcConcurrency: number;
  /** STACKHOOKS_LOG_LEVEL: the lowest level logged: debug, info (default), warn, error or silent. */
  logLevel: LogLevel;
  /** STACKHOOKS_LOG_FORMAT: json, or pretty for a person at a terminal (default: pretty when stdout is a terminal). */
  logFormat: 'json' | 'pretty';
  /** STACKHOOKS_METRICS_PORT: where `/metrics`, `/health` and `/ready` listen (default 9153; `off` for none). */
  metricsPort: number | undefined;
  /** STACKHOOKS_METRICS_HOST: that listener's bind address (default 127.0.0.1: only this machine can scrape). */
  metricsHost: string;
  /** STACKHOOKS_METRICS_TOKEN: when set, `/metrics` answers only `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  /** STACKHOOKS_V1_PORT: where Chainhook 1.x's predicates API listens (off unless set; 1.x used 20456). */
  v1Port: number | undefined;
  /** STACKHOOKS_V1_HOST: that listener's bind address (default 127.0.0.1: 1.x's API had no authentication). */
  v1Host: string;
  /** STACKHOOKS_V1_KEY: when set, that API wants it (`Authorization: Bearer <key>` or a `/key/<key>` path prefix). */
  v1Key: string | undefined;
  /** STACKHOOKS_V1_OWNER: the owner of the predicates registered there (default `chainhook-v1`). */
  v1Owner: string;
  /** STACKHOOKS_V1_FILE_APPEND_DIR: the folder 1.x predicates may `file_append` to (refused unless set). */
  v1FileAppendDir: string | undefined;
  /** STACKHOOKS_DASHBOARD: serve the web dashboard at `/dashboard/` on the API's port (default true). */
  dashboard: boolean;
  /** STACKHOOKS_READY_MAX_BLOCK_AGE: a process that processes blocks is unready after this long without one (default 10m; 0 for never). */
  readyMaxBlockAgeMs: number;
};

/** A configuration problem, named so the operator can fix it. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';

  /** `onCommandLine`: the bad value was typed as a flag (a usage error), not set in a variable. */
  constructor(
    message: string,
    readonly onCommandLine = false,
  ) {
    super(message);
  }
}

type Source = Record<string, string | undefined>;

/** The raw settings: the environment with the flags given over it, and where each value came from. */
class RawSettings {
  constructor(
    private readonly values: Source,
    private readonly flagOf: Record<string, string>,
  ) {}

  get(name: string): string | undefined {
    return this.values[name];
  }

  /** How the user gave `name`: the flag when its value came from one, else the variable. */
  label(name: string): string {
    return this.flagOf[name] ?? name;
  }

  /** The error for a bad value of `name`: `problem` after how the user gave it. */
  invalid(name: string, problem: string): ConfigError {
    return new ConfigError(`${this.label(name)}${problem}`, this.flagOf[name] !== undefined);
  }
}

/** The settings a command-line flag may give, beside its environment variable. */
export type ServerFlags = {
  port?: string;
  host?: string;
  dataDir?: string;
  network?: string;
  role?: string;
  observerPort?: string;
  observerHost?: string;
  nodeRpcUrl?: string;
  deliveredBodyRetention?: string;
};

/** Each flag's variable and how the command line spells it. */
export const SERVER_FLAGS: Record<keyof ServerFlags, { env: string; flag: string }> = {
  port: { env: 'STACKHOOKS_PORT', flag: '--port' },
  host: { env: 'STACKHOOKS_HOST', flag: '--host' },
  dataDir: { env: 'STACKHOOKS_DATA_DIR', flag: '--data-dir' },
  network: { env: 'STACKHOOKS_NETWORK', flag: '--network' },
  role: { env: 'STACKHOOKS_ROLE', flag: '--role' },
  observerPort: { env: 'STACKHOOKS_OBSERVER_PORT', flag: '--observer-port' },
  observerHost: { env: 'STACKHOOKS_OBSERVER_HOST', flag: '--observer-host' },
  nodeRpcUrl: { env: 'STACKHOOKS_NODE_RPC_URL', flag: '--node-rpc-url' },
  deliveredBodyRetention: {
    env: 'STACKHOOKS_DELIVERED_BODY_RETENTION',
    flag: '--delivered-body-retention',
  },
};

/** The defaults of the settings a flag may give (the command line's help shows them). */
export const SERVER_DEFAULTS = {
  port: 3000,
  host: '0.0.0.0',
  dataDir: './data',
  network: 'mainnet' as Network,
  role: 'all' as ServerRole,
  observerPort: 20455,
  observerHost: '127.0.0.1',
};

/** What one process does: everything (the default), or one part of a multi-process deployment. */
export type ServerRole = 'all' | 'api' | 'ingest' | 'worker';

/** The roles a process may take. */
export const ROLES: readonly ServerRole[] = ['all', 'api', 'ingest', 'worker'];

/** The networks a service may serve. */
export const NETWORKS: readonly Network[] = ['mainnet', 'testnet'];

/**
 * Read the configuration from environment variables, with command-line flags overriding them. An
 * error names the flag when the value came from one, else the variable.
 */
export function readServerConfig(env: Source = process.env, flags: ServerFlags = {}): ServerConfig {
  const values: Source = { ...env };
  const flagOf: Record<string, string> = {};
  for (const [key, value] of Object.entries(flags) as [keyof ServerFlags, string | undefined][]) {
    if (value === undefined) continue;
    values[SERVER_FLAGS[key].env] = value;
    flagOf[SERVER_FLAGS[key].env] = SERVER_FLAGS[key].flag;
  }
  const source = new RawSettings(values, flagOf);
  const network = (source.get('STACKHOOKS_NETWORK') || SERVER_DEFAULTS.network) as Network;
  if (!NETWORKS.includes(network)) {
    throw source.invalid('STACKHOOKS_NETWORK', ` must be mainnet or testnet, got "${network}"`);
  }
  const role = (source.get('STACKHOOKS_ROLE') || SERVER_DEFAULTS.role) as ServerRole;
  if (!ROLES.includes(role))
    throw source.invalid('STACKHOOKS_ROLE', ` must be one of ${ROLES.join(', ')}, got "${role}"`);
  const databaseUrl = source.get('STACKHOOKS_DATABASE_URL') || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError(
      `STACKHOOKS_DATABASE_URL must be a postgres:// or postgresql:// URL, got one starting "${databaseUrl.split(':')[0]}:"; ` +
        'set a PostgreSQL URL, or leave it unset for the embedded store',
    );
  }
  if (role !== 'all' && !databaseUrl) {
    throw new ConfigError(
      `${source.label('STACKHOOKS_ROLE')} ${role} needs STACKHOOKS_DATABASE_URL: the embedded store belongs to one process, so it runs every role`,
    );
  }
  return {
    role,
    databaseUrl,
    databaseWaitMs: duration(source, 'STACKHOOKS_DATABASE_WAIT', 60_000),
    port: integer(source, 'STACKHOOKS_PORT', SERVER_DEFAULTS.port, 0, 65535),
    host: source.get('STACKHOOKS_HOST') || SERVER_DEFAULTS.host,
    dataDir: source.get('STACKHOOKS_DATA_DIR') || SERVER_DEFAULTS.dataDir,
    network,
    apiKey: source.get('STACKHOOKS_API_KEY') || undefined,
    maxHooksPerOwner: integer(source, 'STACKHOOKS_MAX_HOOKS_PER_OWNER', 1000, 1, 10_000_000),
    requestsPerMinute: integer(source, 'STACKHOOKS_RATE_LIMIT_PER_MINUTE', 600, 1, 10_000_000),
    observerPort: integer(source, 'STACKHOOKS_OBSERVER_PORT', SERVER_DEFAULTS.observerPort, 0, 65535),
    observerHost: source.get('STACKHOOKS_OBSERVER_HOST') || SERVER_DEFAULTS.observerHost,
    allowPrivateTargets: boolean(source, 'STACKHOOKS_ALLOW_PRIVATE_TARGETS', false),
    dashboard: boolean(source, 'STACKHOOKS_DASHBOARD', true),
    deliveryConcurrency: integer(
      source,
      'STACKHOOKS_DELIVERY_CONCURRENCY',
      DEFAULT_DELIVERY_CONCURRENCY,
      1,
      10_000,
    ),
    deliverySlowConcurrency: integer(
      source,
      'STACKHOOKS_DELIVERY_SLOW_CONCURRENCY',
      DEFAULT_SLOW_CONCURRENCY,
      1,
      100_000,
    ),
    deliverySlowAfterMs: duration(source, 'STACKHOOKS_DELIVERY_SLOW_AFTER', DEFAULT_SLOW_AFTER_MS),
    deliveryCircuitOpenMs: duration(source, 'STACKHOOKS_DELIVERY_CIRCUIT_OPEN', DEFAULT_CIRCUIT_OPEN_MS),
    deliveryTimeoutMs: duration(source, 'STACKHOOKS_DELIVERY_TIMEOUT', 10_000),
    retryScheduleMs: schedule(source, 'STACKHOOKS_RETRY_SCHEDULE'),
    deliveryLeaseMs: duration(source, 'STACKHOOKS_DELIVERY_LEASE', 60_000),
    deliveryRetentionMs: duration(source, 'STACKHOOKS_DELIVERY_RETENTION', 7 * 86_400_000),
    deliveredBodyRetentionMs: duration(
      source,
      'STACKHOOKS_DELIVERED_BODY_RETENTION',
      DEFAULT_DELIVERED_BODY_RETENTION_MS,
    ),
    shutdownGraceMs: integer(source, 'STACKHOOKS_SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    nodeRpcUrl: httpUrl(source, 'STACKHOOKS_NODE_RPC_URL'),
    nodeRpcTimeoutMs: boundedDuration(source, 'STACKHOOKS_NODE_RPC_TIMEOUT', 2_000, 60_000),
    nodeRpcConcurrency: integer(
      source,
      'STACKHOOKS_NODE_RPC_CONCURRENCY',
      DEFAULT_NODE_RPC_CONCURRENCY,
      1,
      1_000,
    ),
    logLevel: oneOf(source, 'STACKHOOKS_LOG_LEVEL', LOG_LEVELS, 'info'),
    metricsPort:
      source.get('STACKHOOKS_METRICS_PORT')?.toLowerCase() === 'off'
        ? undefined
        : integer(source, 'STACKHOOKS_METRICS_PORT', 9153, 0, 65535),
    metricsHost: source.get('STACKHOOKS_METRICS_HOST') || '127.0.0.1',
    v1Port: source.get('STACKHOOKS_V1_PORT')
      ? integer(source, 'STACKHOOKS_V1_PORT', 20456, 0, 65535)
      : undefined,
    v1Host: source.get('STACKHOOKS_V1_HOST') || '127.0.0.1',
    v1Key: source.get('STACKHOOKS_V1_KEY') || undefined,
    v1Owner: source.get('STACKHOOKS_V1_OWNER') || 'chainhook-v1',
    v1FileAppendDir: source.get('STACKHOOKS_V1_FILE_APPEND_DIR') || undefined,
    metricsToken: source.get('STACKHOOKS_METRICS_TOKEN') || undefined,
    readyMaxBlockAgeMs: duration(source, 'STACKHOOKS_READY_MAX_BLOCK_AGE', 10 * 60_000),
    logFormat: oneOf(
      source,
      'STACKHOOKS_LOG_FORMAT',
      ['json', 'pretty'],
      process.stdout.isTTY ? 'pretty' : 'json',
    ),
  };
}

/** The node RPC options of a configuration, or undefined when no node is configured. */
export function nodeRpcOptions(
  config: Pick<ServerConfig, 'nodeRpcUrl' | 'nodeRpcTimeoutMs' | 'nodeRpcConcurrency'>,
): { url: string; timeoutMs: number; concurrency: number } | undefined {
  if (!config.nodeRpcUrl) return undefined;
  return {
    url: config.nodeRpcUrl,
    timeoutMs: config.nodeRpcTimeoutMs,
    concurrency: config.nodeRpcConcurrency,
  };
}

function integer(source: RawSettings, name: string, fallback: number, min: number, max: number): number {
  const raw = source.get(name);
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw source.invalid(name, ` must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function oneOf<T extends string>(source: RawSettings, name: string, allowed: readonly T[], fallback: T): T {
  const raw = source.get(name);
  if (raw === undefined || raw === '') return fallback;
  const value = raw.toLowerCase() as T;
  if (!allowed.includes(value))
    throw source.invalid(name, ` must be one of ${allowed.join(', ')}, got "${raw}"`);
  return value;
}

function boolean(source: RawSettings, name: string, fallback: boolean): boolean {
  const raw = (source.get(name) ?? '').toLowerCase();
  if (raw === '') return fallback;
  if (raw === '0' || raw === 'false' || raw === 'no' || raw === 'off') return false;
  if (raw === '1' || raw === 'true' || raw === 'yes' || raw === 'on') return true;
  throw source.invalid(name, ` must be true or false, got "${source.get(name)}"`);
}

function duration(source: RawSettings, name: string, fallback: number): number {
  const raw = source.get(name);
  if (raw === undefined || raw === '') return fallback;
  const value = parseDuration(raw);
  if (value === undefined)
    throw source.invalid(name, ` must be a duration like 500ms, 10s, 2m, 1h or 7d, got "${raw}"`);
  return value;
}

function boundedDuration(source: RawSettings, name: string, fallback: number, max: number): number {
  const value = duration(source, name, fallback);
  if (value <= 0 || value > max) {
    throw source.invalid(name, ` must be above 0 and at most ${max / 1000}s, got "${source.get(name)}"`);
  }
  return value;
}

function httpUrl(source: RawSettings, name: string): string | undefined {
  const raw = source.get(name);
  if (raw === undefined || raw === '') return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw source.invalid(
      name,
      ` must be an http:// or https:// URL like http://127.0.0.1:20443, got "${raw}"`,
    );
  }
  return raw;
}

function schedule(source: RawSettings, name: string): number[] {
  const raw = source.get(name);
  if (raw === undefined || raw === '') return [...DEFAULT_RETRY_SCHEDULE_MS];
  const steps = raw.split(',').map((part) => parseDuration(part));
  if (steps.length === 0 || steps.some((step) => step === undefined)) {
    throw source.invalid(name, ` must be comma-separated durations like 0,1s,5s,30s, got "${raw}"`);
  }
  return steps as number[];
}
