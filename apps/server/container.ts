import 'reflect-metadata';
import type Router from '@koa/router';
import { Container } from 'inversify';
import type Koa from 'koa';
import type { Next } from 'koa';
import type { Network } from '../../core/hooks/definition.js';
import { ACCOUNT_STORE, type AccountStore } from '../../core/ports/account-store.js';
import { BACKFILL_STORE, type BackfillStore } from '../../core/ports/backfill-store.js';
import { BLOCK_STORE, type BlockStore } from '../../core/ports/block-store.js';
import { CHAIN_UPDATE_SINK, type ChainUpdateSink } from '../../core/ports/chain-update-sink.js';
import { CONTRACT_STORE, type ContractStore } from '../../core/ports/contract-store.js';
import {
  CONTRACT_INTERFACE_SOURCE,
  type ContractInterfaceSource,
} from '../../core/ports/contract-interface-source.js';
import type { NormalizedBlock } from '../../core/chain/block.js';
import { DELIVERY_QUEUE, type DeliveryQueue } from '../../core/ports/delivery-queue.js';
import { EVENT_LOG, type EventLog } from '../../core/ports/event-log.js';
import { CLOCK, type Clock } from '../../core/ports/clock.js';
import { TIMER, type Timer } from '../../core/ports/timer.js';
import { HOOK_REPOSITORY, type HookRepository } from '../../core/ports/hook-repository.js';
import type { HookChangeFeed } from '../../core/ports/hook-change-feed.js';
import { ID_SOURCE, type IdSource } from '../../core/ports/id-source.js';
import { INPUT_VALIDATOR, type InputValidator } from '../../core/ports/input-validator.js';
import { LOGGER, type Logger } from '../../core/ports/logger.js';
import { TARGET_GUARD, type TargetGuard } from '../../core/ports/target-guard.js';
import { WEBHOOK_SENDER, type WebhookSender } from '../../core/ports/webhook-sender.js';
import { PAYLOAD_FILES, type PayloadFiles } from '../../core/ports/payload-files.js';
import { DEFAULT_RETRY_SCHEDULE_MS } from '../../core/delivery/retry-policy.js';
import {
  DELIVERY_SETTINGS,
  SERVICE_SETTINGS,
  type DeliverySettings,
  type ServiceSettings,
} from '../../core/settings.js';
import { SERVICE_CONDITIONS, ServiceConditions } from '../../core/health/service-conditions.js';
import { DiskSpaceWatch } from '../../core/health/disk-space.js';
import { DeliveryLog } from '../../core/use-cases/delivery-log.js';
import { DELIVERY_RANDOM, WebhookDispatcher } from '../../core/use-cases/webhook-dispatcher.js';
import { createDnsTargetGuard, createHttpWebhookSender } from '../../adapters/delivery-got/index.js';
import { createFolderPayloadFiles } from '../../adapters/payload-files-fs/index.js';
import { startDeliveryLoop, type DeliveryLoop } from './delivery-loop.js';
import {
  DEFAULT_CIRCUIT_OPEN_MS,
  DEFAULT_DELIVERED_BODY_RETENTION_MS,
  DEFAULT_DELIVERY_CONCURRENCY,
  DEFAULT_SLOW_AFTER_MS,
  DEFAULT_SLOW_CONCURRENCY,
} from './delivery-defaults.js';
import { dataFolders } from './data-folders.js';
import { openPostgresAdapters, type PostgresAdapters } from './postgres-adapters.js';
// From its own module, not the adapter's index: the public .d.ts must not reach pg's types.
import type { DatabaseCounters } from '../../adapters/store-postgres/connection-health.js';
import { ApiKeys } from '../../core/use-cases/api-keys.js';
import { ConsumerSecrets } from '../../core/use-cases/consumer-secrets.js';
import {
  EVALUATION_RUNNER,
  HookEvaluations,
  type EvaluationRunner,
} from '../../core/use-cases/evaluate-hook.js';
import { EvaluationDelivery } from '../../core/use-cases/evaluation-delivery.js';
import { HookRegistry } from '../../core/use-cases/hook-registry.js';
import { PredicateRegistry } from '../../core/use-cases/predicate-registry.js';
import { BACKFILL_RUNNER, HookBackfills } from '../../core/use-cases/hook-backfills.js';
import {
  BackfillScans,
  DEFAULT_BACKFILL_LIMITS,
  type BackfillLimits,
} from '../../core/use-cases/backfill-scans.js';
import { backfillSendCheck } from '../../core/use-cases/backfill-send-check.js';
import { HookCatchUp } from '../../core/use-cases/hook-catch-up.js';
import { LiveMatching } from '../../core/use-cases/live-matching.js';
import { BlockArchiver } from '../../core/use-cases/archive-blocks.js';
import { ChainNotices, type ChainCounters } from '../../core/use-cases/chain-notices.js';
import { BlockIngest } from '../../core/use-cases/ingest-blocks.js';
import { SignerMessageDelivery } from '../../core/use-cases/signer-message-delivery.js';
import { signerMessageFigures } from './signer-message-figures.js';
import { ContractAbis } from '../../core/use-cases/contract-abis.js';
import { openFsArchive, openFsContractStore } from '../../adapters/archive-fs/index.js';
import { NodeRpcInterfaceSource, type NodeRpcOptions } from '../../adapters/node-rpc/index.js';
import { openFsOutbox } from '../../adapters/outbox/index.js';
import { openFsEventLog } from '../../adapters/event-log-fs/index.js';
import { createAjvInputValidator } from '../../adapters/contract-ajv/index.js';
import { createHttpApi, routeApi, type ApiState } from '../../adapters/http-koa/index.js';
import { FileBackfillStore, openLowdbStore } from '../../adapters/store-lowdb/index.js';
import { CryptoIdSource, PinoLogger, SystemClock, SystemTimer } from '../../adapters/system/index.js';
import { readChainStatus } from './chain-status.js';
import { claimDataFolderNetwork } from './store-network.js';
import { SERVER_VERSION } from './version.js';
import type { StackhooksMetrics } from './service-metrics.js';
import { operatorView } from './operator-view.js';
import { builtDashboardFolder } from './dashboard-folder.js';
import type { Readiness } from '../../core/health/readiness.js';
import type { IngestProgress } from '../../core/use-cases/ingest-progress.js';

/** Every adapter the service runs on; a caller may replace any of them. */
export type Adapters = {
  hooks: HookRepository;
  accounts: AccountStore;
  blocks: BlockStore;
  contracts: ContractStore;
  /** Where backfills are kept (their progress too, so a restart goes on). */
  backfills: BackfillStore;
  /** Where ABIs of contracts whose deploy was never seen come from; by default `nodeRpc`'s node, else none. */
  interfaces: ContractInterfaceSource;
  eventLog: EventLog & { close?(): Promise<void> };
  deliveries: DeliveryQueue;
  sender: WebhookSender;
  /** Where Chainhook 1.x's `file_append` payloads are appended; by default inside `fileAppendDir`, else refused. */
  payloadFiles: PayloadFiles;
  hookChanges: HookChangeFeed;
  targetGuard: TargetGuard;
  /** Where canonical chain changes go; by default the live matcher. */
  chainUpdates: ChainUpdateSink;
  validator: InputValidator;
  clock: Clock;
  timer: Timer;
  ids: IdSource;
  logger: Logger;
  evaluationRunner: EvaluationRunner;
};

/** How to build a stackhooks instance; every field has a default. */
export type StackhooksOptions = {
  /** Folder of the embedded stores (default `./data`). */
  dataDir?: string;
  /** PostgreSQL for every store instead of the embedded ones (`postgres://…[?schema=name]`); migrated at start. */
  databaseUrl?: string;
  /** How long to wait at start for a database that cannot be reached yet, in ms (default 60,000). */
  databaseWaitMs?: number;
  /** The one network served (default `mainnet`). */
  network?: Network;
  /** Hooks one owner may hold (default 1000). */
  maxHooksPerOwner?: number;
  /** Requests one API key may make a minute (default 600). */
  requestsPerMinute?: number;
  /** How webhooks go out (concurrency, timeout, retry schedule, retention, private targets). */
  delivery?: Partial<DeliverySettings>;
  /**
   * A stacks-node's RPC (`url`, e.g. `http://127.0.0.1:20443`), asked once for the ABI of each
   * called contract whose deploy the service never saw; without it such calls go out unnamed.
   */
  nodeRpc?: NodeRpcOptions;
  /** How hard backfills may press: scans at once, payloads in flight per backfill, heights a step. */
  backfills?: Partial<BackfillLimits>;
  /**
   * The folder Chainhook 1.x predicates may `file_append` to (paths are taken inside it); without
   * it such predicates are refused at registration.
   */
  fileAppendDir?: string;
  /** Replacements for the default adapters. */
  adapters?: Partial<Adapters>;
  /**
   * For a caller that feeds blocks: readiness also fails once no block has come for
   * `maxBlockAgeMs` (counted from the start when the last block is older). Off by default.
   */
  readiness?: { maxBlockAgeMs: number };
  /**
   * The web dashboard at `/dashboard/` of `app` (default on, from the package's built files); false
   * turns it off, `{ folder }` serves a build kept elsewhere.
   */
  dashboard?: boolean | { folder: string };
};

/** A built instance: the use cases, the HTTP API, and the means to stop it cleanly. */
export type Stackhooks = {
  container: Container;
  settings: ServiceSettings;
  registry: HookRegistry;
  /** Chainhook 1.x's predicates, kept as hooks of one owner. */
  predicates: PredicateRegistry;
  keys: ApiKeys;
  secrets: ConsumerSecrets;
  evaluations: HookEvaluations;
  backfills: HookBackfills;
  /** The backfill scans; the process that processes blocks runs them (`startBackfills`). */
  backfillScans: BackfillScans;
  ingest: BlockIngest;
  eventLog: EventLog;
  liveMatching: LiveMatching;
  dispatcher: WebhookDispatcher;
  deliveryLog: DeliveryLog;
  /** What keeps the service from part of its work right now (shown on the status route). */
  conditions: ServiceConditions;
  /** Where call arguments get their names and types; `counters` for metrics. */
  contractAbis: ContractAbis;
  /** What blocks in did to the chain since start (gaps, orphans, unreadable and quarantined bodies), for metrics. */
  chain: { readonly counters: Readonly<ChainCounters> };
  /** On Postgres: whether the database answers, and counters of lost connections and outages (for metrics). */
  database: { readonly reachable: boolean; readonly counters: Readonly<DatabaseCounters> } | undefined;
  /** Prometheus metrics of this instance (`exposition()` is the `/metrics` text). */
  metrics: StackhooksMetrics;
  /** Where block processing stands: the tip, the last block's time, the lag (read from the stores). */
  ingestProgress(): Promise<IngestProgress>;
  /** Whether the service should get traffic, and why not (`GET /ready`). */
  readiness(): Promise<Readiness>;
  /** Start sending queued webhooks (the server does; an embedding caller may, or may take payloads itself). */
  startDelivery(): DeliveryLoop;
  /** Start running backfills (the server does where it processes blocks); unfinished ones go on. */
  startBackfills(): BackfillScans;
  /** Become the one process that processes blocks (on Postgres it waits while another holds the lock). */
  takeIngestLock(options: {
    signal?: AbortSignal;
    onWaiting?: () => void;
  }): Promise<{ release(): Promise<void>; lost: Promise<void> }>;
  /** Keep the matcher fresh with hook changes made by other processes; resolves to a stop function. */
  followHookChanges(): Promise<() => Promise<void>>;
  /** A Koa app serving the API on its own. */
  app: Koa<ApiState>;
  /** The API router, for mounting in another Koa app through `middleware`. */
  router: Router<ApiState>;
  /** One Koa middleware serving every route of the API (both prefixes). */
  middleware: (ctx: Koa.ParameterizedContext, next: Next) => Promise<void>;
  /** Wait for every write to reach disk, then release the stores. */
  close(): Promise<void>;
};

/** Build the container with the default adapters, replacing those the caller gives. */
export async function createStackhooks(options: StackhooksOptions = {}): Promise<Stackhooks> {
  const dataDir = options.dataDir ?? './data';
  const folders = dataFolders(dataDir);
  const given = options.adapters ?? {};
  const closers: (() => Promise<void>)[] = [];

  const delivery: DeliverySettings = {
    concurrency: DEFAULT_DELIVERY_CONCURRENCY,
    slowConcurrency: DEFAULT_SLOW_CONCURRENCY,
    slowAfterMs: DEFAULT_SLOW_AFTER_MS,
    circuitOpenMs: DEFAULT_CIRCUIT_OPEN_MS,
    timeoutMs: 10_000,
    retryScheduleMs: DEFAULT_RETRY_SCHEDULE_MS,
    retentionMs: 7 * 86_400_000,
    deliveredBodyRetentionMs: DEFAULT_DELIVERED_BODY_RETENTION_MS,
    allowPrivateTargets: false,
    leaseMs: 60_000,
    ...options.delivery,
  };
  const logger = given.logger ?? new PinoLogger();
  const clock = given.clock ?? new SystemClock();
  const conditions = new ServiceConditions();
  const network = options.network ?? 'mainnet';
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
  if (!eventLog) {
    const opened = await openFsEventLog(folders.events, { space });
    eventLog = opened;
    closers.push(() => opened.close());
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
  const settings: ServiceSettings = {
    network,
    maxHooksPerOwner: options.maxHooksPerOwner ?? 1000,
    serverVersion: SERVER_VERSION,
  };

  const container = new Container();
  container.bind(HOOK_REPOSITORY).toConstantValue(hooks);
  container.bind(ACCOUNT_STORE).toConstantValue(accounts);
  container.bind(BLOCK_STORE).toConstantValue(blocks);
  container.bind(CONTRACT_STORE).toConstantValue(contracts);
  container.bind(BACKFILL_STORE).toConstantValue(backfills);
  let interfaces = given.interfaces;
  if (!interfaces && options.nodeRpc) {
    const nodeRpc = new NodeRpcInterfaceSource(options.nodeRpc);
    closers.push(async () => nodeRpc.close());
    interfaces = nodeRpc;
  }
  if (interfaces) container.bind(CONTRACT_INTERFACE_SOURCE).toConstantValue(interfaces);
  container.bind(ContractAbis).toSelf().inSingletonScope();
  container.bind(EVENT_LOG).toConstantValue(eventLog);
  container.bind(DELIVERY_QUEUE).toConstantValue(deliveries);
  container.bind(LiveMatching).toSelf().inSingletonScope();
  container.bind(EvaluationDelivery).toSelf().inSingletonScope();
  if (given.chainUpdates) container.bind(CHAIN_UPDATE_SINK).toConstantValue(given.chainUpdates);
  else container.bind(CHAIN_UPDATE_SINK).toService(LiveMatching);
  container.bind(INPUT_VALIDATOR).toConstantValue(given.validator ?? createAjvInputValidator());
  container.bind(CLOCK).toConstantValue(clock);
  container.bind(TIMER).toConstantValue(given.timer ?? new SystemTimer());
  container.bind(ID_SOURCE).toConstantValue(given.ids ?? new CryptoIdSource());
  container.bind(LOGGER).toConstantValue(logger);
  container.bind(SERVICE_SETTINGS).toConstantValue(settings);
  container.bind(SERVICE_CONDITIONS).toConstantValue(conditions);
  container.bind(DELIVERY_SETTINGS).toConstantValue(delivery);
  container
    .bind(WEBHOOK_SENDER)
    .toConstantValue(
      given.sender ?? createHttpWebhookSender({ allowPrivateTargets: delivery.allowPrivateTargets }),
    );
  container
    .bind(TARGET_GUARD)
    .toConstantValue(
      given.targetGuard ?? createDnsTargetGuard({ allowPrivateTargets: delivery.allowPrivateTargets }),
    );
  container.bind(PAYLOAD_FILES).toConstantValue(
    given.payloadFiles ??
      createFolderPayloadFiles({
        folder: options.fileAppendDir,
        offReason: 'is refused: no folder is set for file_append (STACKHOOKS_V1_FILE_APPEND_DIR)',
      }),
  );
  container.bind(DELIVERY_RANDOM).toConstantValue(Math.random);
  container.bind(WebhookDispatcher).toSelf().inSingletonScope();
  container.bind(DeliveryLog).toSelf().inSingletonScope();
  if (given.evaluationRunner) container.bind(EVALUATION_RUNNER).toConstantValue(given.evaluationRunner);
  else container.bind(EVALUATION_RUNNER).toService(EvaluationDelivery);
  container.bind(HookRegistry).toSelf().inSingletonScope();
  container.bind(PredicateRegistry).toSelf().inSingletonScope();
  container.bind(ApiKeys).toSelf().inSingletonScope();
  container.bind(ConsumerSecrets).toSelf().inSingletonScope();
  container.bind(HookEvaluations).toSelf().inSingletonScope();
  container.bind(ChainNotices).toSelf().inSingletonScope();
  container.bind(BlockArchiver).toSelf().inSingletonScope();
  container.bind(BlockIngest).toSelf().inSingletonScope();
  container.bind(SignerMessageDelivery).toSelf().inSingletonScope();

  const registry = container.get(HookRegistry);
  const liveMatching = container.get(LiveMatching);
  registry.onChange(liveMatching);
  const dispatcher = container.get(WebhookDispatcher);
  dispatcher.onChange(liveMatching);
  registry.showReceivers((hook) => dispatcher.receiverStanding(hook));
  // What the two readers of archived blocks for a hook (resumes and backfills) share.
  const archiveReading = {
    hooks,
    blocks,
    deliveries: container.get<DeliveryQueue>(DELIVERY_QUEUE),
    clock: container.get<Clock>(CLOCK),
    logger,
    network: settings.network,
    nameCalls: (block: NormalizedBlock) => container.get(ContractAbis).nameCalls(block),
    exclusive: <T>(step: () => Promise<T>) => liveMatching.exclusive(step),
  };
  const catchUp = new HookCatchUp({
    ...archiveReading,
    joined: (hook) => liveMatching.hookChanged(hook.uuid, hook),
  });
  liveMatching.onResumeWanted((hook) => catchUp.want(hook));
  const backfillScans = new BackfillScans({
    ...archiveReading,
    liveWaiting: () => liveMatching.liveWorkWaiting,
    backfills,
    timer: container.get<Timer>(TIMER),
    limits: { ...DEFAULT_BACKFILL_LIMITS, ...options.backfills },
  });
  container.bind(BACKFILL_RUNNER).toConstantValue(backfillScans);
  container.bind(HookBackfills).toSelf().inSingletonScope();
  const predicates = container.get(PredicateRegistry);
  predicates.onChange(liveMatching);
  dispatcher.addSendCheck(backfillSendCheck(backfills, blocks));
  dispatcher.onAttempt(() => backfillScans.settled());
  const deliveryLog = container.get(DeliveryLog);
  let loop: DeliveryLoop | undefined;
  const queue = container.get<DeliveryQueue>(DELIVERY_QUEUE);
  const startDelivery = () => {
    loop ??= startDeliveryLoop({
      dispatcher,
      queue,
      retentionMs: delivery.retentionMs,
      deliveredBodyRetentionMs: delivery.deliveredBodyRetentionMs,
      logger,
    });
    const wake = loop.wake;
    (queue as { onEnqueued?: (listener: () => void) => void }).onEnqueued?.(wake);
    deliveryLog.onRedeliver(wake);
    return loop;
  };
  const keys = container.get(ApiKeys);
  const secrets = container.get(ConsumerSecrets);
  const evaluations = container.get(HookEvaluations);
  const ingest = container.get(BlockIngest);
  const signerMessages = container.get(SignerMessageDelivery);
  ingest.onStackerDbPost((entry) => signerMessages.received(entry));
  const contractAbis = container.get(ContractAbis);
  const { ingestProgress, readiness, metrics } = operatorView({
    info: {
      version: settings.serverVersion,
      network: settings.network,
      store: postgres ? 'postgres' : 'embedded',
    },
    blocks,
    eventLog,
    clock,
    maxBlockAgeMs: options.readiness?.maxBlockAgeMs,
    ingest,
    dispatcher,
    contractAbis,
    conditions,
    hooks,
    deliveries: queue,
    chain: container.get(ChainNotices),
    database: postgres?.db.health,
  });
  metrics.add(signerMessageFigures(signerMessages));
  const { app, router } = createHttpApi({
    registry,
    keys,
    secrets,
    evaluations,
    backfills: container.get(HookBackfills),
    deliveries: deliveryLog,
    logger,
    serverVersion: settings.serverVersion,
    requestsPerMinute: options.requestsPerMinute ?? 600,
    onRequest: (request) => metrics.events.request(request),
    readiness,
    chainStatus: () =>
      readChainStatus({ blocks, conditions, progress: ingestProgress, outbox: () => queue.pendingSummary() }),
    dashboard: dashboardOption(options.dashboard),
  });
  const middleware = routeApi(router) as Stackhooks['middleware'];

  return {
    container,
    settings,
    registry,
    predicates,
    keys,
    secrets,
    evaluations,
    backfills: container.get(HookBackfills),
    backfillScans,
    ingest,
    eventLog,
    liveMatching,
    dispatcher,
    deliveryLog,
    conditions,
    contractAbis,
    chain: container.get(ChainNotices),
    database: postgres?.db.health,
    metrics,
    ingestProgress,
    readiness,
    startDelivery,
    startBackfills() {
      backfillScans.start();
      return backfillScans;
    },
    async takeIngestLock(lockOptions) {
      if (postgres) return postgres.takeIngestLock(lockOptions);
      // The embedded store belongs to this process alone (the data folder is locked).
      return { release: async () => undefined, lost: new Promise<void>(() => undefined) };
    },
    async followHookChanges() {
      const feed = given.hookChanges ?? postgres?.hookChanges;
      if (!feed || !hooks) return async () => undefined;
      const repository = hooks;
      return feed.watch(
        (uuid) => {
          repository.getByUuid(uuid).then(
            (hook) => liveMatching.hookChanged(uuid, hook),
            (err: unknown) => {
              // Not read now (the database may be away): read every hook again before the next block.
              logger.warn('could not read a changed hook; reloading all hooks', {
                hook: uuid,
                error: String(err),
              });
              liveMatching.resync();
            },
          );
        },
        () => liveMatching.resync(),
      );
    },
    app,
    router,
    middleware,
    async close() {
      await catchUp.stop();
      await backfillScans.stop();
      await ingest.idle();
      await loop?.stop();
      await container.get(EvaluationDelivery).idle();
      // Answers of the node still under way are kept before the stores close (within its timeout).
      await contractAbis.idle();
      for (const close of closers.reverse()) await close();
    },
  };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function dashboardOption(option: StackhooksOptions['dashboard']): { folder: string | undefined } | undefined {
  if (option === false) return undefined;
  return typeof option === 'object' ? option : { folder: builtDashboardFolder() };
}
