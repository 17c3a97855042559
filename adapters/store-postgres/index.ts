// The Postgres adapter's public surface: one `export … from` line per module, kept a plain list.
export { openDatabase, schemaOf, type Database, type OpenDatabaseOptions } from './database.js';
export { migrate, listMigrations, type Migration } from './migrate.js';
export { PgHookRepository } from './pg-hook-repository.js';
export { PgAccountStore } from './pg-account-store.js';
export { PgHookChangeFeed, HOOK_CHANGE_CHANNEL, type HookChangeFeedOptions } from './pg-hook-change-feed.js';
export { PgEventLog } from './pg-event-log.js';
export { PgBlockStore } from './pg-block-store.js';
export { PgContractStore } from './pg-contract-store.js';
export { PgBackfillStore } from './pg-backfill-store.js';
export { acquireIngestLock, type IngestLock, type IngestLockOptions } from './ingest-lock.js';
export { PgOutbox, openPgOutbox, type PgOutboxOptions } from './pg-outbox.js';
export { PgBodyGoneError } from './outbox-body-gone-error.js';
export { isConnectionFailure, asStoreFailure } from './connection-failure.js';
export { ConnectionHealth, type DatabaseHealthEvent, type DatabaseCounters } from './connection-health.js';
export { DatabaseStartError, databaseAddress, type DatabaseWait } from './wait-for-database.js';
export { recordStoreNetwork } from './store-network.js';
