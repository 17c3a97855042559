import 'reflect-metadata';
import { Container } from 'inversify';
import { ACCOUNT_STORE } from '../../core/ports/account-store.js';
import { BACKFILL_STORE } from '../../core/ports/backfill-store.js';
import { BLOCK_STORE } from '../../core/ports/block-store.js';
import { CHAIN_UPDATE_SINK } from '../../core/ports/chain-update-sink.js';
import { CONTRACT_STORE } from '../../core/ports/contract-store.js';
import { CONTRACT_INTERFACE_SOURCE } from '../../core/ports/contract-interface-source.js';
import type { NormalizedBlock } from '../../core/chain/block.js';
import { DELIVERY_QUEUE, type DeliveryQueue } from '../../core/ports/delivery-queue.js';
import { EVENT_LOG } from '../../core/ports/event-log.js';
import { CLOCK, type Clock } from '../../core/ports/clock.js';
import { TIMER, type Timer } from '../../core/ports/timer.js';
import { HOOK_REPOSITORY } from '../../core/ports/hook-repository.js';
import { ID_SOURCE } from '../../core/ports/id-source.js';
import { INPUT_VALIDATOR } from '../../core/ports/input-validator.js';
import { LOGGER } from '../../core/ports/logger.js';
import { TARGET_GUARD } from '../../core/ports/target-guard.js';
import { WEBHOOK_SENDER } from '../../core/ports/webhook-sender.js';
import { PAYLOAD_FILES } from '../../core/ports/payload-files.js';
import { DEFAULT_RETRY_SCHEDULE_MS } from '../../core/delivery/retry-policy.js';
import {
  DELIVERY_SETTINGS,
  SERVICE_SETTINGS,
  type DeliverySettings,
  type ServiceSettings,
} from '../../core/settings.js';
import { SERVICE_CONDITIONS, ServiceConditions } from '../../core/health/service-conditions.js';
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
import { openStores } from './open-stores.js';
import type { Stackhooks, StackhooksOptions } from './stackhooks-types.js';
import { ApiKeys } from '../../core/use-cases/api-keys.js';
import { ConsumerSecrets } from '../../core/use-cases/consumer-secrets.js';
import { EVALUATION_RUNNER, HookEvaluations } from '../../core/use-cases/evaluate-hook.js';
import { EvaluationDelivery } from '../../core/use-cases/evaluation-delivery.js';
import { HookRegistry } from '../../core/use-cases/hook-registry.js';
import { PredicateRegistry } from '../../core/use-cases/predicate-registry.js';
import { BACKFILL_RUNNER, HookBackfills } from '../../core/use-cases/hook-backfills.js';
import { BackfillScans, DEFAULT_BACKFILL_LIMITS } from '../../core/use-cases/backfill-scans.js';
import { backfillSendCheck } from '../../core/use-cases/backfill-send-check.js';
import { HookCatchUp } from '../../core/use-cases/hook-catch-up.js';
import { LiveMatching } from '../../core/use-cases/live-matching.js';
import { BlockArchiver } from '../../core/use-cases/archive-blocks.js';
import { ChainNotices } from '../../core/use-cases/chain-notices.js';
import { BlockIngest } from '../../core/use-cases/ingest-blocks.js';
import { SignerMessageDelivery } from '../../core/use-cases/signer-message-delivery.js';
import { signerMessageFigures } from './signer-message-figures.js';
import { ContractAbis } from '../../core/use-cases/contract-abis.js';
import { NodeRpcInterfaceSource } from '../../adapters/node-rpc/index.js';
import { createAjvInputValidator } from '../../adapters/contract-ajv/index.js';
import { createHttpApi, routeApi } from '../../adapters/http-koa/index.js';
import { CryptoIdSource, PinoLogger, SystemClock, SystemTimer } from '../../adapters/system/index.js';
import { readChainStatus } from './chain-status.js';
import { SERVER_VERSION } from './version.js';
import { operatorView } from './operator-view.js';
import { builtDashboardFolder } from './dashboard-folder.js';

export type { Adapters, Stackhooks, StackhooksOptions } from './stackhooks-types.js';

/** Build the container with the default adapters, replacing those the caller gives. */
export async function createStackhooks(options: StackhooksOptions = {}): Promise<Stackhooks> {
  const given = options.adapters ?? {};

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
  const opened = await openStores(options, { delivery, network, logger, clock, conditions });
  const { hooks, accounts, blocks, contracts, backfills, eventLog, deliveries, postgres, closers } = opened;
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
    eventLogAppender: opened.eventLogAppender,
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

function dashboardOption(
  option: StackhooksOptions['dashboard'],
): { folder: string | (() => string | undefined) } | undefined {
  if (option === false) return undefined;
  return typeof option === 'object' ? option : { folder: builtDashboardFolder };
}
