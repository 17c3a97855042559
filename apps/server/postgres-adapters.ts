import {
  PgAccountStore,
  PgBackfillStore,
  PgBlockStore,
  PgContractStore,
  PgEventLog,
  PgHookChangeFeed,
  PgHookRepository,
  acquireIngestLock,
  databaseAddress,
  migrate,
  openDatabase,
  openPgOutbox,
  recordStoreNetwork,
  type Database,
  type DatabaseHealthEvent,
} from '../../adapters/store-postgres/index.js';
import type { ServiceConditions } from '../../core/health/service-conditions.js';
import type { Network } from '../../core/hooks/definition.js';
import type { AccountStore } from '../../core/ports/account-store.js';
import type { BlockStore } from '../../core/ports/block-store.js';
import type { Clock } from '../../core/ports/clock.js';
import type { ContractStore } from '../../core/ports/contract-store.js';
import type { DeliveryQueue } from '../../core/ports/delivery-queue.js';
import type { BackfillStore } from '../../core/ports/backfill-store.js';
import type { HookChangeFeed } from '../../core/ports/hook-change-feed.js';
import type { HookRepository } from '../../core/ports/hook-repository.js';
import type { Logger } from '../../core/ports/logger.js';
import { silentLogger } from '../../adapters/system/index.js';
import { checkStoreNetwork } from './store-network.js';

/** Every store on one PostgreSQL database, migrated, plus what many processes need. */
export type PostgresAdapters = {
  db: Database;
  hooks: HookRepository;
  accounts: AccountStore;
  blocks: BlockStore;
  contracts: ContractStore;
  backfills: BackfillStore;
  eventLog: PgEventLog;
  deliveries: DeliveryQueue;
  hookChanges: HookChangeFeed;
  /** Become the one active ingest process (waits while another holds it). */
  takeIngestLock: typeof acquireIngestLock extends (url: string, ...rest: infer R) => infer T
    ? (...rest: R) => T
    : never;
  close(): Promise<void>;
};

/** What the Postgres composition needs from the rest of the service. */
export type PostgresOptions = {
  leaseMs: number;
  /** How long a delivered payload keeps its body, in ms (default one hour). */
  keepDeliveredBodiesMs?: number;
  /** The network served: recorded in a new schema, and a schema recorded for another is refused. */
  network: Network;
  /** How long to wait at start for a database that cannot be reached yet, in ms (default 0). */
  waitMs?: number;
  /** Where waits, lost connections and outages are told (default: nowhere). */
  logger?: Logger;
  /** Where `database_unreachable` is raised and cleared, on `clock`'s time. */
  conditions?: ServiceConditions;
  clock?: Clock;
};

/** The condition raised while the database does not answer. */
export const DATABASE_UNREACHABLE = 'database_unreachable';

/**
 * Connect (waiting for a database that is not up yet), apply pending migrations, and build every
 * Postgres adapter. Losing the database later is logged and shown as the `database_unreachable`
 * condition until it answers again.
 */
export async function openPostgresAdapters(url: string, options: PostgresOptions): Promise<PostgresAdapters> {
  const logger = options.logger ?? silentLogger;
  const waitMs = options.waitMs ?? 0;
  const address = databaseAddress(url);
  const db = await openDatabase(url, {
    waitMs,
    onWaiting: (wait) =>
      logger.warn('database not reachable yet; waiting for it', {
        database: address,
        attempt: wait.attempt,
        error: wait.error,
        retry_in_ms: wait.retryInMs,
        gives_up_in_ms: Math.max(0, waitMs - wait.waitedMs - wait.retryInMs),
      }),
  });
  db.health.onChange((event) => reportHealth(event, address, logger, options));
  try {
    await migrate(db);
    const { network, recorded } = await recordStoreNetwork(
      db,
      options.network,
      (options.clock ?? Date).now(),
    );
    checkStoreNetwork(network, options.network, `the database schema "${db.schema}" at ${address}`);
    if (recorded) logger.info('the database schema now records the network it serves', { network });
  } catch (err) {
    await db.close();
    throw err;
  }
  const hookChanges = new PgHookChangeFeed(db, {
    onError: (err) =>
      logger.warn('hook change feed lost its connection; reconnecting', { error: err.message }),
    onReconnect: () => logger.info('hook change feed listening again; reloading hooks'),
  });
  return {
    db,
    hooks: new PgHookRepository(db),
    accounts: new PgAccountStore(db),
    blocks: new PgBlockStore(db),
    contracts: new PgContractStore(db),
    backfills: new PgBackfillStore(db),
    eventLog: await PgEventLog.open(db),
    deliveries: openPgOutbox(db, {
      leaseMs: options.leaseMs,
      keepDeliveredBodiesMs: options.keepDeliveredBodiesMs,
    }),
    hookChanges,
    takeIngestLock: (lockOptions) => acquireIngestLock(url, lockOptions),
    close: () => db.close(),
  };
}

function reportHealth(
  event: DatabaseHealthEvent,
  database: string,
  logger: Logger,
  { conditions, clock }: PostgresOptions,
): void {
  switch (event.kind) {
    case 'connection_lost':
      logger.warn('a database connection was lost; the database answers, so the work is retried', {
        database,
        error: event.error,
      });
      return;
    case 'unreachable':
      conditions?.raise(
        DATABASE_UNREACHABLE,
        `PostgreSQL at ${database} does not answer (${event.error}); requests that need it answer 503 until it does`,
        clock?.now() ?? Date.now(),
      );
      logger.error('database unreachable; retrying until it answers', { database, error: event.error });
      return;
    case 'reachable':
      conditions?.clear(DATABASE_UNREACHABLE);
      logger.info('database reachable again', { database, down_ms: event.downMs });
      return;
  }
}
