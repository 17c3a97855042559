import pg from 'pg';
import { schemaOf } from './database.js';
import { ENQUEUE_LOCK } from './outbox-queue-writes.js';
import { ARCHIVE_LOCK } from './pg-block-store.js';

/** Any fixed number, apart from the other adapters': the first key of the ingest lock. */
const INGEST_LOCK = 7_406_301;
/** How often the holder checks its connection, and how long an answer may take before it counts as lost. */
const HEARTBEAT_MS = 5_000;
const HEARTBEAT_TIMEOUT_MS = 10_000;
/** How long connecting may take before the attempt counts as failed (the caller retries). */
const CONNECT_TIMEOUT_MS = 10_000;

/** The ingest lock, held until `release()`; `lost` resolves if its connection drops (stop processing then). */
export type IngestLock = {
  /** Unlock and close the lock's connection; `lost` never resolves after this. */
  release(): Promise<void>;
  /** Resolves when the connection holding the lock is gone: the lock may now be someone else's. */
  lost: Promise<void>;
};

/** What a caller may tell `acquireIngestLock`. */
export type IngestLockOptions = {
  /** Called once when another process holds the lock and this call starts waiting for it. */
  onWaiting?: () => void;
  /** Stop waiting: the call rejects with the signal's reason. */
  signal?: AbortSignal;
};

/**
 * Make this process the one ingest of the schema in `url`: a session advisory lock on a connection
 * of its own. A second caller waits until the holder releases it or its session ends; a holder that
 * is killed closes its socket, the server ends its session and the lock passes on at once. Session
 * keepalives let the server notice a holder whose machine vanished without closing anything.
 */
export async function acquireIngestLock(url: string, options: IngestLockOptions = {}): Promise<IngestLock> {
  const { signal, onWaiting } = options;
  signal?.throwIfAborted();
  const schema = schemaOf(url);
  const server = new URL(url);
  server.searchParams.delete('schema');
  const client = new pg.Client({
    connectionString: server.toString(),
    // Names the session in pg_stat_activity, so an operator can tell which schema's lock it holds.
    application_name: `stackhooks ingest lock ${schema}`,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
  });
  let held = false;
  let released = false;
  const timer: { heartbeat?: NodeJS.Timeout } = {};
  let markLost: () => void = () => undefined;
  const lost = new Promise<void>((resolve) => (markLost = resolve));
  const drop = (): void => {
    if (released || !held) return;
    held = false;
    clearInterval(timer.heartbeat);
    // A heartbeat that timed out may leave a working socket: close it so the server frees the lock.
    client.end().catch(() => undefined);
    markLost();
  };
  // Without a listener an idle connection's error would crash the process.
  client.on('error', drop);
  client.on('end', drop);
  await client.connect();
  const key = [INGEST_LOCK, schema];
  try {
    await client.query(
      'SET tcp_keepalives_idle = 10; SET tcp_keepalives_interval = 5; SET tcp_keepalives_count = 3',
    );
    const { rows } = await client.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked',
      key,
    );
    if (!rows[0].locked) {
      onWaiting?.();
      await waitForLock(client, server.toString(), key, signal);
    }
    await awaitWritesInFlight(client, schema);
  } catch (err) {
    await client.end().catch(() => undefined);
    throw err;
  }
  held = true;
  // Unreferenced: the connection itself keeps the process alive while the lock is held.
  timer.heartbeat = setInterval(() => void checkConnection(client).catch(drop), HEARTBEAT_MS);
  timer.heartbeat.unref();
  return {
    lost,
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer.heartbeat);
      try {
        // A connection already gone took the lock with it: nothing to unlock then.
        if (held)
          await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', key).catch(() => undefined);
      } finally {
        await client.end().catch(() => undefined);
      }
    },
  };
}

/**
 * Wait for the writes of a block a previous holder may still have in flight: its archive write, its
 * enqueue and its hooks' step. Its session lock ends with its connection, but a killed process's
 * statements on its other connections run to their end: a new holder that read the archive's tip
 * before such a commit landed would take a block's chain change as published when it was not, and
 * one that read the live stream's progress before its step landed would count the block again.
 * Taking each write's lock once, in a transaction that ends at once, returns only when the writes
 * holding them have committed or rolled back.
 */
async function awaitWritesInFlight(client: pg.Client, schema: string): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query(
      'SELECT pg_advisory_xact_lock($1, hashtext($3)), pg_advisory_xact_lock($2, hashtext($3))',
      [ARCHIVE_LOCK, ENQUEUE_LOCK, schema],
    );
    // The step locks the stream's one row; a schema not migrated yet has no step to wait for.
    const { rows } = await client.query<{ present: boolean }>(
      "SELECT to_regclass(format('%I.live_stream', $1::text)) IS NOT NULL AS present",
      [schema],
    );
    // The name is a checked identifier (schemaOf), so it is quoted, not passed.
    if (rows[0].present) await client.query(`SELECT 1 FROM "${schema}".live_stream FOR UPDATE`);
  } finally {
    await client.query('COMMIT');
  }
}

/** Block in `pg_advisory_lock`; an abort cancels the waiting statement from a second connection. */
async function waitForLock(
  client: pg.Client,
  serverUrl: string,
  key: unknown[],
  signal: AbortSignal | undefined,
): Promise<void> {
  signal?.throwIfAborted();
  const { processID } = client as unknown as { processID: number };
  let settled = false;
  // Repeated until the call ends: a cancel that reaches the server before the call starts does nothing.
  const cancel = async (): Promise<void> => {
    while (!settled) {
      await cancelBackend(serverUrl, processID);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const onAbort = (): void => void cancel();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await client.query('SELECT pg_advisory_lock($1, hashtext($2))', key);
  } catch (err) {
    throw signal?.aborted ? signal.reason : err;
  } finally {
    settled = true;
    signal?.removeEventListener('abort', onAbort);
  }
  // Granted just as the abort came: the caller closes the connection, which frees the lock again.
  signal?.throwIfAborted();
}

/** Cancel the statement a backend is running (our own waiting lock call). */
async function cancelBackend(serverUrl: string, processID: number): Promise<void> {
  const other = new pg.Client({ connectionString: serverUrl });
  other.on('error', () => undefined);
  try {
    await other.connect();
    await other.query('SELECT pg_cancel_backend($1)', [processID]);
  } catch {
    // Nothing to cancel with: the waiting call then ends when the connection closes.
  } finally {
    await other.end().catch(() => undefined);
  }
}

/** Resolve when the server answers within the timeout; reject otherwise. */
async function checkConnection(client: pg.Client): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error('the ingest lock connection did not answer')),
      HEARTBEAT_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([client.query('SELECT 1'), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
