import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { createObserverServer, listenObserver } from '../../adapters/ingest-stacks-node/index.js';
import { openFsEventLog } from '../../adapters/event-log-fs/index.js';
import { openDatabase } from '../../adapters/store-postgres/database.js';
import { PgEventLog } from '../../adapters/store-postgres/pg-event-log.js';
import type { EventLog } from '../../core/ports/event-log.js';
import type { Logger } from '../../core/ports/logger.js';
import type { DiskSpaceReport } from '../../core/storage/write-failure.js';
import { closeGracefully } from './close-gracefully.js';
import type {
  ObserverThreadCommand,
  ObserverThreadData,
  ObserverThreadReport,
} from './observer-thread-messages.js';

// The observer's own thread: it answers the node's posts and appends them to the event log, so a
// long step of block processing or a collection in the instance's thread never delays a 200.

function instanceChannel(): MessagePort {
  if (!parentPort) throw new Error('the observer thread runs as a worker thread');
  return parentPort;
}
const channel = instanceChannel();
const data = workerData as ObserverThreadData;
const report = (message: ObserverThreadReport): void => channel.postMessage(message);

const logger: Logger = {
  debug: (message, fields) => report({ type: 'log', level: 'debug', message, fields }),
  info: (message, fields) => report({ type: 'log', level: 'info', message, fields }),
  warn: (message, fields) => report({ type: 'log', level: 'warn', message, fields }),
  error: (message, fields) => report({ type: 'log', level: 'error', message, fields }),
};

const space: DiskSpaceReport = {
  failed: (store, error) =>
    report({
      type: 'space',
      outcome: 'failed',
      store,
      code: errorCode(error),
      message: error instanceof Error ? error.message : String(error),
    }),
  wrote: (store) => report({ type: 'space', outcome: 'wrote', store }),
};

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === undefined ? undefined : String(code);
}

/** The log opened for appending, and what closes it. */
async function openLog(): Promise<{ log: EventLog; close: () => Promise<void> }> {
  if (data.source.kind === 'folder') {
    // Nothing else runs on this thread, so its writes may block it rather than wait for the pool.
    const log = await openFsEventLog(data.source.dir, { space, blockingWrites: true });
    return { log, close: () => log.close() };
  }
  // Two connections: appends arriving together share one transaction, so more would idle.
  const db = await openDatabase(data.source.url, { max: 2 });
  const log = await PgEventLog.open(db);
  return {
    log,
    close: async () => {
      await log.close();
      await db.close();
    },
  };
}

async function run(): Promise<void> {
  const { log, close } = await openLog();
  const server = createObserverServer({
    log,
    logger,
    bodiesInFlightBytes: data.bodiesInFlightBytes,
    onAppended: (id, path, receivedAt, seconds, appendSeconds) =>
      report({ type: 'appended', id, path, receivedAt, seconds, appendSeconds }),
  });
  let bound: number;
  try {
    bound = await listenObserver(server, data.port, data.host);
  } catch (err) {
    await close().catch(() => undefined);
    throw err;
  }
  channel.on('message', (command: ObserverThreadCommand) => {
    if (command.type !== 'stop') return;
    void closeGracefully(server, command.graceMs)
      .then(close)
      .catch((err: unknown) => logger.error('observer thread did not stop cleanly', { error: String(err) }))
      .finally(() => {
        report({ type: 'stopped' });
        channel.close();
      });
  });
  report({ type: 'listening', port: bound });
}

run().catch((err: unknown) => {
  const port = (err as { port?: unknown } | undefined)?.port;
  report({
    type: 'failed',
    message: err instanceof Error ? err.message : String(err),
    code: errorCode(err),
    port: typeof port === 'number' ? port : undefined,
  });
  channel.close();
});
