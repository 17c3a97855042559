import pg from 'pg';
import type { HookChangeFeed } from '../../core/ports/hook-change-feed.js';
import { schemaOf, type Database } from './database.js';

/** The channel the `hooks` trigger notifies; payloads are `schema:uuid` (see migration 001). */
export const HOOK_CHANGE_CHANNEL = 'stackhooks_hooks';

/** How a feed reports trouble and paces its reconnects; it logs nothing itself. */
export type HookChangeFeedOptions = {
  /** Called with every connection failure; the feed keeps reconnecting on its own. */
  onError?: (err: Error) => void;
  /** Called once a lost connection is back: changes made while it was down were not seen, so reload. */
  onReconnect?: () => void;
  /** First delay before reconnecting, in milliseconds (default 100); doubles on each failure. */
  retryMs?: number;
  /** The longest delay between reconnect attempts, in milliseconds (default 10,000). */
  maxRetryMs?: number;
};

/**
 * Hook changes made by any process, heard through Postgres LISTEN/NOTIFY. Each `watch` holds its own
 * connection, outside any pool: a listening session must stay open and must not be handed to queries.
 */
export class PgHookChangeFeed implements HookChangeFeed {
  /** `source`: the store, or its URL with `?schema=`; only that schema's changes are reported. */
  constructor(
    private readonly source: Database | string,
    private readonly options: HookChangeFeedOptions = {},
  ) {}

  /**
   * Call `listener` with the uuid of every hook changed from now on, and `onMissed` each time the
   * feed listens again after a lost connection (changes made meanwhile were not heard); rejects if
   * it cannot connect at first.
   */
  async watch(listener: (uuid: string) => void, onMissed?: () => void): Promise<() => Promise<void>> {
    const listening = new ListeningSession(this.source, listener, this.options, onMissed);
    await listening.start();
    return () => listening.stop();
  }
}

/** One watch's connection: listens, filters to its schema, and replaces itself when the connection drops. */
class ListeningSession {
  readonly #config: pg.ClientConfig;
  readonly #schema: string;
  readonly #retryMs: number;
  readonly #maxRetryMs: number;
  #client: pg.Client | undefined;
  #connecting: Promise<void> | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #delay: number;
  #stopped = false;

  constructor(
    source: Database | string,
    private readonly listener: (uuid: string) => void,
    private readonly options: HookChangeFeedOptions,
    private readonly onMissed: (() => void) | undefined,
  ) {
    const connection = connectionOf(source);
    this.#config = connection.config;
    this.#schema = connection.schema;
    this.#retryMs = options.retryMs ?? 100;
    this.#maxRetryMs = options.maxRetryMs ?? 10_000;
    this.#delay = this.#retryMs;
  }

  /** Connect and LISTEN; resolves once notifications are being received. */
  async start(): Promise<void> {
    this.#client = await this.#connect();
  }

  /** UNLISTEN and close; waits for a reconnect in flight, so no connection outlives the stop. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#connecting;
    const client = this.#client;
    this.#client = undefined;
    if (!client) return;
    await client.query(`UNLISTEN ${HOOK_CHANGE_CHANNEL}`).catch(() => undefined);
    await client.end().catch(() => undefined);
  }

  async #connect(): Promise<pg.Client> {
    const client = new pg.Client({
      ...this.#config,
      // Names the session in pg_stat_activity, so an operator can tell which schema's feed it is.
      application_name: `stackhooks hook feed ${this.#schema}`,
      // A peer that vanishes without closing the socket is otherwise noticed only at the next write.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      connectionTimeoutMillis: 10_000,
    });
    client.on('error', (err) => this.#lost(client, err));
    client.on('end', () => this.#lost(client, new Error('the hook change feed connection ended')));
    client.on('notification', (message) => this.#deliver(message));
    try {
      await client.connect();
      await client.query(`LISTEN ${HOOK_CHANGE_CHANNEL}`);
      return client;
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
  }

  /** The current connection failed: report it once and schedule a new one. */
  #lost(client: pg.Client, err: Error): void {
    // A connection that is not current (a failed attempt, or one already replaced) was dealt with.
    if (client !== this.#client || this.#stopped) return;
    this.#client = undefined;
    this.options.onError?.(err);
    client.end().catch(() => undefined);
    this.#schedule();
  }

  #schedule(): void {
    this.#timer = setTimeout(() => {
      this.#connecting = this.#reconnect().finally(() => (this.#connecting = undefined));
    }, this.#delay);
    // A feed waiting to reconnect is no reason to keep the process alive.
    this.#timer.unref();
    this.#delay = Math.min(this.#delay * 2, this.#maxRetryMs);
  }

  async #reconnect(): Promise<void> {
    let client: pg.Client;
    try {
      client = await this.#connect();
    } catch (err) {
      this.options.onError?.(err as Error);
      if (!this.#stopped) this.#schedule();
      return;
    }
    if (this.#stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.#client = client;
    this.#delay = this.#retryMs;
    this.options.onReconnect?.();
    this.onMissed?.();
  }

  #deliver(message: pg.Notification): void {
    if (message.channel !== HOOK_CHANGE_CHANNEL || !message.payload) return;
    // Channels are shared by every schema of the database; only this schema's changes are ours.
    const separator = message.payload.indexOf(':');
    if (message.payload.slice(0, separator) !== this.#schema) return;
    try {
      this.listener(message.payload.slice(separator + 1));
    } catch (err) {
      // A listener's throw must not reach pg's socket handler, which would drop the connection.
      this.options.onError?.(err as Error);
    }
  }
}

/** Where to connect, outside any pool: the pool's own server settings, or the URL without `?schema=`. */
function connectionOf(source: Database | string): { config: pg.ClientConfig; schema: string } {
  if (typeof source !== 'string') {
    // Named one by one: the pool keeps `password` non-enumerable, so a spread would drop it.
    const { connectionString, host, port, user, password, database, ssl } = source.pool.options;
    return { config: { connectionString, host, port, user, password, database, ssl }, schema: source.schema };
  }
  const clean = new URL(source);
  clean.searchParams.delete('schema');
  return { config: { connectionString: clean.toString() }, schema: schemaOf(source) };
}
