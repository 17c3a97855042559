import type Router from '@koa/router';
import type { Container } from 'inversify';
import type { EventLogAppender } from './event-log-appender.js';
import type Koa from 'koa';
import type { Next } from 'koa';
import type { Network } from '../../core/hooks/definition.js';
import type { AccountStore } from '../../core/ports/account-store.js';
import type { BackfillStore } from '../../core/ports/backfill-store.js';
import type { BlockStore } from '../../core/ports/block-store.js';
import type { ChainUpdateSink } from '../../core/ports/chain-update-sink.js';
import type { ContractStore } from '../../core/ports/contract-store.js';
import type { ContractInterfaceSource } from '../../core/ports/contract-interface-source.js';
import type { DeliveryQueue } from '../../core/ports/delivery-queue.js';
import type { EventLog } from '../../core/ports/event-log.js';
import type { Clock } from '../../core/ports/clock.js';
import type { Timer } from '../../core/ports/timer.js';
import type { HookRepository } from '../../core/ports/hook-repository.js';
import type { HookChangeFeed } from '../../core/ports/hook-change-feed.js';
import type { IdSource } from '../../core/ports/id-source.js';
import type { InputValidator } from '../../core/ports/input-validator.js';
import type { Logger } from '../../core/ports/logger.js';
import type { TargetGuard } from '../../core/ports/target-guard.js';
import type { WebhookSender } from '../../core/ports/webhook-sender.js';
import type { PayloadFiles } from '../../core/ports/payload-files.js';
import type { DeliverySettings, ServiceSettings } from '../../core/settings.js';
import type { ServiceConditions } from '../../core/health/service-conditions.js';
import type { Readiness } from '../../core/health/readiness.js';
import type { DeliveryLog } from '../../core/use-cases/delivery-log.js';
import type { WebhookDispatcher } from '../../core/use-cases/webhook-dispatcher.js';
import type { ApiKeys } from '../../core/use-cases/api-keys.js';
import type { ConsumerSecrets } from '../../core/use-cases/consumer-secrets.js';
import type { EvaluationRunner, HookEvaluations } from '../../core/use-cases/evaluate-hook.js';
import type { HookRegistry } from '../../core/use-cases/hook-registry.js';
import type { PredicateRegistry } from '../../core/use-cases/predicate-registry.js';
import type { HookBackfills } from '../../core/use-cases/hook-backfills.js';
import type { BackfillLimits, BackfillScans } from '../../core/use-cases/backfill-scans.js';
import type { LiveMatching } from '../../core/use-cases/live-matching.js';
import type { ChainCounters } from '../../core/use-cases/chain-notices.js';
import type { BlockIngest } from '../../core/use-cases/ingest-blocks.js';
import type { ContractAbis } from '../../core/use-cases/contract-abis.js';
import type { IngestProgress } from '../../core/use-cases/ingest-progress.js';
import type { NodeRpcOptions } from '../../adapters/node-rpc/index.js';
import type { ApiState } from '../../adapters/http-koa/index.js';
// From its own module, not the adapter's index: the public .d.ts must not reach pg's types.
import type { DatabaseCounters } from '../../adapters/store-postgres/connection-health.js';
import type { DeliveryLoop } from './delivery-loop.js';
import type { StackhooksMetrics } from './service-metrics.js';

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
  /** How an observer in its own thread appends to `eventLog`; undefined when the event log was given as an adapter. */
  eventLogAppender: EventLogAppender | undefined;
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
