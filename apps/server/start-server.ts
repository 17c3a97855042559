import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../../core/ports/logger.js';
import { PinoLogger } from '../../adapters/system/index.js';
import { listenAdminSocket } from './admin-socket.js';
import type { BlockProcessing } from './block-processing.js';
import { closeGracefully } from './close-gracefully.js';
import { ConfigError, nodeRpcOptions, type ServerConfig } from './config.js';
import { createOpsServer } from './ops-listener.js';
import { gauge } from '../../adapters/metrics-prometheus/index.js';
import { createPredicatesServer } from '../../adapters/chainhook-v1-http/index.js';
import { createStackhooks, type Stackhooks } from './container.js';
import { lockDataDir, type DataDirLock } from './data-dir-lock.js';
import { startObserver } from './start-observer.js';

/** A running server: where it listens and how to stop it. */
export type RunningServer = {
  stackhooks: Stackhooks;
  /** The API's bound port (useful with port 0); 0 when this process serves no API. */
  port: number;
  /** The event observer's bound port; 0 when this process does no ingest. */
  observerPort: number;
  /** The bound port of `/metrics`, `/health` and `/ready`; 0 when turned off. */
  metricsPort: number;
  /** The bound port of Chainhook 1.x's predicates API; 0 when it is off. */
  v1Port: number;
  /** Block processing, when this process does ingest: whether it is active, and its counters (for metrics). */
  blockProcessing: BlockProcessing | undefined;
  /** Stop accepting, finish requests in flight (up to the grace time), flush every write, release the folder. */
  stop(reason?: string): Promise<void>;
};

/**
 * Start what the role asks: the API, the observer and block processing (ingest), the webhook
 * sender (worker), or all of them. On the embedded default the data folder is locked to this process;
 * on Postgres any number of api and worker processes share the database and one ingest is active.
 */
export async function startServer(
  config: ServerConfig,
  logger: Logger = new PinoLogger({ level: config.logLevel, pretty: config.logFormat === 'pretty' }),
): Promise<RunningServer> {
  const runs = (role: 'api' | 'ingest' | 'worker') => config.role === 'all' || config.role === role;
  const lock: DataDirLock | undefined = config.databaseUrl ? undefined : await lockDataDir(config.dataDir);
  if (lock) await warnIfShared(config.dataDir, logger);
  if (config.databaseUrl && runs('worker') && config.deliveryLeaseMs <= config.deliveryTimeoutMs) {
    // Allowed (a deployment that ran with it keeps running), but another worker may take over a
    // payload still being sent, and the receiver then gets it twice.
    logger.warn('the delivery lease is not longer than the delivery timeout', {
      lease_ms: config.deliveryLeaseMs,
      timeout_ms: config.deliveryTimeoutMs,
      fix: 'set STACKHOOKS_DELIVERY_LEASE above STACKHOOKS_DELIVERY_TIMEOUT',
    });
  }
  let stackhooks: Stackhooks;
  try {
    stackhooks = await createStackhooks({
      dataDir: config.dataDir,
      databaseUrl: config.databaseUrl,
      databaseWaitMs: config.databaseWaitMs,
      network: config.network,
      maxHooksPerOwner: config.maxHooksPerOwner,
      requestsPerMinute: config.requestsPerMinute,
      delivery: {
        concurrency: config.deliveryConcurrency,
        slowConcurrency: config.deliverySlowConcurrency,
        slowAfterMs: config.deliverySlowAfterMs,
        circuitOpenMs: config.deliveryCircuitOpenMs,
        timeoutMs: config.deliveryTimeoutMs,
        retryScheduleMs: config.retryScheduleMs,
        retentionMs: config.deliveryRetentionMs,
        deliveredBodyRetentionMs: config.deliveredBodyRetentionMs,
        leaseMs: config.deliveryLeaseMs,
        allowPrivateTargets: config.allowPrivateTargets,
      },
      nodeRpc: nodeRpcOptions(config),
      fileAppendDir: config.v1FileAppendDir,
      adapters: { logger },
      dashboard: config.dashboard,
      // Only a process that processes blocks can tell a stalled chain from its own work.
      readiness: runs('ingest') ? { maxBlockAgeMs: config.readyMaxBlockAgeMs } : undefined,
    });
  } catch (err) {
    await lock?.release();
    throw err;
  }
  const stops: (() => Promise<void>)[] = [];
  // Undo what has started so far, so a listener that cannot bind leaves no half-started server behind.
  const unwind = async () => {
    await Promise.all(stops.map((stop) => stop()));
    await stackhooks.close();
    await lock?.release();
  };

  // The observer listens before the API, so a server whose status route answers takes blocks too.
  let observerPort = 0;
  let blockProcessing: BlockProcessing | undefined;
  if (runs('ingest')) {
    const observer = await startObserver(stackhooks, {
      port: config.observerPort,
      host: config.observerHost,
      shutdownGraceMs: config.shutdownGraceMs,
      logger,
    }).catch(async (err: unknown) => {
      await unwind();
      throw err;
    });
    blockProcessing = observer.blockProcessing;
    observerPort = observer.port;
    logger.info('observer listening', { host: config.observerHost, port: observerPort });
    stops.push(observer.stop);
    // Backfill steps take turns with chain events, so they run where blocks are processed.
    const scans = stackhooks.startBackfills();
    stops.push(() => scans.stop());
  }

  let port = 0;
  if (runs('api')) {
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
    port = (http.address() as AddressInfo).port;
    stops.push(() => closeGracefully(http, config.shutdownGraceMs));
    if (!config.databaseUrl) {
      const admin = await listenAdminSocket(config.dataDir, stackhooks.keys).catch((err: unknown) => {
        logger.error('admin socket not available; stop the server to manage keys', { error: String(err) });
        return undefined;
      });
      if (admin) stops.push(async () => void admin.close());
    }
    logger.info('api listening', { host: config.host, port, network: config.network, role: config.role });
  }

  let v1Port = 0;
  if (runs('api') && config.v1Port !== undefined) {
    const v1 = createPredicatesServer({
      predicates: stackhooks.predicates,
      owner: config.v1Owner,
      key: config.v1Key,
      logger,
    });
    await listenOrUnwind(
      v1,
      config.v1Port,
      config.v1Host,
      unwind,
      (err) =>
        `the Chainhook 1.x listener cannot listen on ${config.v1Host}:${config.v1Port} (${err}); ` +
        'set STACKHOOKS_V1_PORT to a free port',
    );
    v1Port = (v1.address() as AddressInfo).port;
    stops.push(() => closeGracefully(v1, config.shutdownGraceMs));
    logger.info('chainhook 1.x api listening', {
      host: config.v1Host,
      port: v1Port,
      key_required: config.v1Key !== undefined,
    });
  }

  if (runs('worker')) {
    const loop = stackhooks.startDelivery();
    stops.push(() => loop.stop());
    logger.info('delivery started', {
      concurrency: config.deliveryConcurrency,
      slow_concurrency: config.deliverySlowConcurrency,
    });
  }

  stackhooks.metrics.add([
    gauge(
      'stackhooks_role',
      'What this process runs: all, api, ingest or worker (always 1)',
      () => [{ labels: { role: config.role }, value: 1 }],
      ['role'],
    ),
  ]);
  let metricsPort = 0;
  if (config.metricsPort !== undefined) {
    const ops = createOpsServer({
      metrics: () => stackhooks.metrics.exposition(),
      contentType: stackhooks.metrics.contentType,
      ready: () => stackhooks.readiness(),
      token: config.metricsToken,
    });
    await listenOrUnwind(
      ops,
      config.metricsPort,
      config.metricsHost,
      unwind,
      (err) =>
        `the metrics listener cannot listen on ${config.metricsHost}:${config.metricsPort} (${err}); ` +
        'set STACKHOOKS_METRICS_PORT to a free port (each process on a machine needs its own) or to off',
    );
    metricsPort = (ops.address() as AddressInfo).port;
    stops.push(() => closeGracefully(ops, config.shutdownGraceMs));
    logger.info('metrics listening', {
      host: config.metricsHost,
      port: metricsPort,
      token_required: config.metricsToken !== undefined,
    });
  }

  return {
    stackhooks,
    port,
    observerPort,
    metricsPort,
    v1Port,
    blockProcessing,
    async stop(reason = 'stop') {
      logger.info('stopping', { reason });
      await Promise.all(stops.map((stop) => stop()));
      await stackhooks.close();
      await lock?.release();
      logger.info('stopped', { reason });
    },
  };
}

// A folder created by stackhooks is 0700; one made by hand or by an earlier version keeps its mode.
async function warnIfShared(dataDir: string, logger: Logger): Promise<void> {
  const { mode } = await stat(dataDir);
  if ((mode & 0o077) === 0) return;
  logger.warn('other users can open the data folder; chmod 700 it to keep its files to this user', {
    data_dir: dataDir,
    mode: (mode & 0o777).toString(8),
  });
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

/** Listen, or undo the start so far and fail with a message that says which setting to change. */
async function listenOrUnwind(
  server: Server,
  port: number,
  host: string,
  unwind: () => Promise<void>,
  message: (err: string) => string,
): Promise<void> {
  try {
    await listen(server, port, host);
  } catch (err) {
    await unwind();
    throw new ConfigError(message(String(err)));
  }
}
