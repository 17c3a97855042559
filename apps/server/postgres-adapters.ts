import {
  PgAccountStore,
  PgBlockStore,
  PgContractStore,
  PgEventLog,
  PgHookChangeFeed,
  PgHookRepository,
  acquireIngestLock,
  migrate,
  openDatabase,
  openPgOutbox,
  type Database,
} from '../../adapters/store-postgres/index.js';
import type { AccountStore } from '../../core/ports/account-store.js';
import type { BlockStore } from '../../core/ports/block-store.js';
import type { ContractStore } from '../../core/ports/contract-store.js';
import type { DeliveryQueue } from '../../core/ports/delivery-queue.js';
import type { EventLog } from '../../core/ports/event-log.js';
import type { HookChangeFeed } from '../../core/ports/hook-change-feed.js';
import type { HookRepository } from '../../core/ports/hook-repository.js';

/** Every store on one PostgreSQL database, migrated, plus what many processes need. */
export type PostgresAdapters = {
  db: Database;
  hooks: HookRepository;
  accounts: AccountStore;
  blocks: BlockStore;
  contracts: ContractStore;
  eventLog: EventLog;
  deliveries: DeliveryQueue;
  hookChanges: HookChangeFeed;
  /** Become the one active ingest process (waits while another holds it). */
  takeIngestLock: typeof acquireIngestLock extends (url: string, ...rest: infer R) => infer T
    ? (...rest: R) => T
    : never;
  close(): Promise<void>;
};

/** Connect, apply pending migrations, and build every Postgres adapter. */
export async function openPostgresAdapters(
  url: string,
  options: { leaseMs: number },
): Promise<PostgresAdapters> {
  const db = await openDatabase(url);
  try {
    await migrate(db);
  } catch (err) {
    await db.close();
    throw err;
  }
  const hookChanges = new PgHookChangeFeed(db);
  return {
    db,
    hooks: new PgHookRepository(db),
    accounts: new PgAccountStore(db),
    blocks: new PgBlockStore(db),
    contracts: new PgContractStore(db),
    eventLog: await PgEventLog.open(db),
    deliveries: openPgOutbox(db, { leaseMs: options.leaseMs }),
    hookChanges,
    takeIngestLock: (options) => acquireIngestLock(url, options),
    close: () => db.close(),
  };
}
