import type { Network } from '../../core/hooks/definition.js';
import type { Clock } from '../../core/ports/clock.js';
import type { Logger } from '../../core/ports/logger.js';
import type { DeliverySettings } from '../../core/settings.js';
import type { ServiceConditions } from '../../core/health/service-conditions.js';
import { DiskSpaceWatch } from '../../core/health/disk-space.js';
import { openFsArchive, openFsContractStore } from '../../adapters/archive-fs/index.js';
import { openFsOutbox } from '../../adapters/outbox/index.js';
import { openFsEventLog } from '../../adapters/event-log-fs/index.js';
import { FileBackfillStore, openLowdbStore } from '../../adapters/store-lowdb/index.js';
import { dataFolders } from './data-folders.js';
import type { EventLogAppender } from './event-log-appender.js';
import { openPostgresAdapters, type PostgresAdapters } from './postgres-adapters.js';
import { claimDataFolderNetwork } from './store-network.js';
import type { Adapters, StackhooksOptions } from './stackhooks-types.js';

/** The stores of an instance: the ones the caller gave, the others opened here. */
export type OpenedStores = Pick<
  Adapters,
  'hooks' | 'accounts' | 'blocks' | 'contracts' | 'backfills' | 'eventLog' | 'deliveries'
> & {
  /** The Postgres adapters, when the stores are in a database. */
  postgres: PostgresAdapters | undefined;
  /** How the observer's own thread appends to the event log, when it was opened here. */
  eventLogAppender: EventLogAppender | undefined;
  /** What closes the stores opened here, in opening order. */
  closers: (() => Promise<void>)[];
};

/** What opening the stores needs from the instance being built. */
export type StoreContext = {
  delivery: DeliverySettings;
  network: Network;
  logger: Logger;
  clock: Clock;
  conditions: ServiceConditions;
};

/**
 * Open the stores the caller did not give: all in PostgreSQL when `databaseUrl` is set (migrated
 * first), else the embedded ones in the data folder, which is bound to the network it serves.
 */
export async function openStores(options: StackhooksOptions, context: StoreContext): Promise<OpenedStores> {
  const { delivery, network, logger, clock, conditions } = context;
  const dataDir = options.dataDir ?? './data';
  const folders = dataFolders(dataDir);
  const given = options.adapters ?? {};
  const closers: (() => Promise<void>)[] = [];
  // The file stores raise `storage_full` while the disk refuses their writes, and clear it after.
  const space = new DiskSpaceWatch(conditions, clock, logger);
  let postgres: PostgresAdapters | undefined;
  if (options.databaseUrl) {
    const opened = await openPostgresAdapters(options.databaseUrl, {
      network,
      leaseMs: delivery.leaseMs,
      keepDeliveredBodiesMs: delivery.deliveredBodyRetentionMs,
      waitMs: options.databaseWaitMs ?? 60_000,
      logger,
      conditions,
      clock,
    });
    postgres = opened;
    closers.push(() => opened.close());
  }
  // A store kept in the data folder binds the folder to the network (a folder of another is refused).
  const stores = ['hooks', 'accounts', 'blocks', 'contracts', 'backfills', 'eventLog', 'deliveries'] as const;
  if (!postgres && stores.some((store) => given[store] === undefined)) {
    if ((await claimDataFolderNetwork(dataDir, network, clock.now())).recorded)
      logger.info('the data folder now records the network it serves', { network, data_dir: dataDir });
  }
  let { hooks, accounts, blocks } = {
    hooks: postgres?.hooks,
    accounts: postgres?.accounts,
    blocks: postgres?.blocks,
    ...stripUndefined(given),
  };
  if (!hooks || !accounts) {
    const store = await openLowdbStore(dataDir, { space });
    hooks ??= store.hooks;
    accounts ??= store.accounts;
    closers.push(() => store.close());
  }
  if (!blocks) {
    const archive = await openFsArchive(folders.archive, { space });
    blocks = archive;
    closers.push(() => archive.close());
  }
  const contracts =
    given.contracts ?? postgres?.contracts ?? (await openFsContractStore(folders.contracts, space));
  let backfills = given.backfills ?? postgres?.backfills;
  if (!backfills) {
    const opened = await FileBackfillStore.open(dataDir, { space });
    backfills = opened;
    closers.push(() => opened.flush());
  }
  let eventLog = given.eventLog ?? postgres?.eventLog;
  let eventLogAppender: EventLogAppender | undefined;
  if (!eventLog) {
    const opened = await openFsEventLog(folders.events, { space });
    eventLog = opened;
    eventLogAppender = {
      source: { kind: 'folder', dir: folders.events },
      follow: (newest) => opened.follow(newest),
      appendElsewhere: (elsewhere) => opened.appendElsewhere(elsewhere),
      space,
    };
    closers.push(() => opened.close());
  } else if (postgres && eventLog === postgres.eventLog && options.databaseUrl) {
    // Both threads' appends and reads meet in the database.
    const opened = postgres.eventLog;
    eventLogAppender = {
      source: { kind: 'postgres', url: options.databaseUrl },
      follow: (newest) => opened.follow(newest),
      appendElsewhere: async () => undefined,
      space,
    };
  }
  let deliveries = given.deliveries ?? postgres?.deliveries;
  if (!deliveries) {
    const outbox = await openFsOutbox(folders.outbox, {
      space,
      keepDeliveredBodiesMs: delivery.deliveredBodyRetentionMs,
    });
    deliveries = outbox;
    closers.push(() => outbox.close());
  }
  return {
    hooks,
    accounts,
    blocks,
    contracts,
    backfills,
    eventLog,
    eventLogAppender,
    deliveries,
    postgres,
    closers,
  };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
