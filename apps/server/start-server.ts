import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../../core/ports/logger.js';
import { createObserverServer, listenObserver } from '../../adapters/ingest-stacks-node/index.js';
import { JsonLogger } from '../../adapters/system/index.js';
import { listenAdminSocket } from './admin-socket.js';
import type { ServerConfig } from './config.js';
import { createStackhooks, type Stackhooks } from './container.js';
import { lockDataDir } from './data-dir-lock.js';

/** A running server: where it listens and how to stop it. */
export type RunningServer = {
  stackhooks: Stackhooks;
  /** The API's bound port (useful with port 0). */
  port: number;
  /** The event observer's bound port. */
  observerPort: number;
  /** Stop accepting, finish requests in flight (up to the grace time), flush every write, release the folder. */
  stop(reason?: string): Promise<void>;
};

/** Start the API on the embedded default: lock the data folder, register keys, listen. */
export async function startServer(
  config: ServerConfig,
  logger: Logger = new JsonLogger(),
): Promise<RunningServer> {
  const lock = await lockDataDir(config.dataDir);
  let stackhooks: Stackhooks;
  try {
    stackhooks = await createStackhooks({
      dataDir: config.dataDir,
      network: config.network,
      maxHooksPerOwner: config.maxHooksPerOwner,
      requestsPerMinute: config.requestsPerMinute,
      delivery: {
        concurrency: config.deliveryConcurrency,
        timeoutMs: config.deliveryTimeoutMs,
        retryScheduleMs: config.retryScheduleMs,
        retentionMs: config.deliveryRetentionMs,
        allowPrivateTargets: config.allowPrivateTargets,
      },
      adapters: { logger },
    });
  } catch (err) {
    await lock.release();
    throw err;
  }
  if (config.apiKey) await stackhooks.keys.register('default', config.apiKey);
  const first = await stackhooks.keys.issueFirstKeyIfNone();
  if (first) {
    // Shown once: only its hash is stored.
    process.stdout.write(
      `\nNo API key existed, so one was created for owner "${first.owner}" (shown only this once):\n\n` +
        `  ${first.key}\n\nSend it as the x-api-key header. Manage keys with: npx stackhooks keys --help\n\n`,
    );
  }

  const http = createServer(stackhooks.app.callback());
  await listen(http, config.port, config.host);
  const admin = await listenAdminSocket(config.dataDir, stackhooks.keys).catch((err: unknown) => {
    logger.error('admin socket not available; stop the server to manage keys', { error: String(err) });
    return undefined;
  });
  const port = (http.address() as AddressInfo).port;
  logger.info('api listening', {
    host: config.host,
    port,
    network: config.network,
    data_dir: config.dataDir,
  });

  stackhooks.startDelivery();
  const { ingest } = stackhooks;
  const wake = () => {
    ingest.wake().catch((err: unknown) => logger.error('block processing stopped', { error: String(err) }));
  };
  const observer = createObserverServer({ log: stackhooks.eventLog, logger, onAppended: wake });
  const observerPort = await listenObserver(observer, config.observerPort, config.observerHost);
  logger.info('observer listening', { host: config.observerHost, port: observerPort });
  // Entries stored before a crash or a stop are processed now.
  wake();

  return {
    stackhooks,
    port,
    observerPort,
    async stop(reason = 'stop') {
      logger.info('stopping', { reason });
      admin?.close();
      await Promise.all([
        closeGracefully(http, config.shutdownGraceMs),
        closeGracefully(observer, config.shutdownGraceMs),
      ]);
      await stackhooks.close();
      await lock.release();
      logger.info('stopped', { reason });
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

// close() waits for requests in flight; idle keep-alive sockets are closed at once, and after the
// grace time whatever still hangs is cut so shutdown always ends.
async function closeGracefully(server: Server, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), graceMs);
  await closed;
  clearTimeout(timer);
}
