/**
 * stackhooks as a library: build an instance with `createStackhooks(options)`, mount its API in your
 * own Koa app (or call the use cases directly), and replace any adapter through `options.adapters`.
 * See docs/embedding.md.
 */
export {
  createStackhooks,
  type Adapters,
  type Stackhooks,
  type StackhooksOptions,
} from '../server/container.js';
export { startServer, type RunningServer } from '../server/start-server.js';
export { startObserver, type ObserverListenOptions, type RunningObserver } from '../server/start-observer.js';
export type { BlockProcessing, BlockProcessingCounters } from '../server/block-processing.js';
export type { DeliveryLoop } from '../server/delivery-loop.js';
export { readServerConfig, type ServerConfig } from '../server/config.js';
export { StoreNetworkError } from '../server/store-network.js';

export type {
  EventFilter,
  EventFilterType,
  HookDefinition,
  HookDefinitionUpdate,
  HookOptions,
  Network,
} from '../../core/hooks/definition.js';
export type { HookRecord, HookStatus, HookStatusValue, StoredHook } from '../../core/hooks/record.js';
export { StackhooksError, type FailureCode, type FieldProblem } from '../../core/hooks/errors.js';
export type { ApiKeyRecord, IssuedApiKey } from '../../core/accounts/api-key.js';
export {
  HookRegistry,
  type HookChangeListener,
  type HookListing,
} from '../../core/use-cases/hook-registry.js';
export { ApiKeys } from '../../core/use-cases/api-keys.js';
export { ContractAbis, type ContractAbiCounters } from '../../core/use-cases/contract-abis.js';
export { ChainNotices, type ChainCounters } from '../../core/use-cases/chain-notices.js';
export { ConsumerSecrets } from '../../core/use-cases/consumer-secrets.js';
export { HookEvaluations, type EvaluationRunner } from '../../core/use-cases/evaluate-hook.js';

export {
  HOOK_REPOSITORY,
  type HookRepository,
  type HookSelection,
  type HookPage,
  type HookStatusCount,
} from '../../core/ports/hook-repository.js';
// What a HookRepository of your own needs to keep the live stream's counters as the stores do.
export {
  LIVE_STREAM_START,
  advanceProgress,
  rebase,
  withLiveProgress,
} from '../../core/hooks/live-progress.js';
export type { LiveProgress, LiveStep } from '../../core/hooks/live-progress.js';
export { ACCOUNT_STORE, type AccountStore } from '../../core/ports/account-store.js';
export { BLOCK_STORE, type BlockStore } from '../../core/ports/block-store.js';
export { CLOCK, type Clock } from '../../core/ports/clock.js';
export {
  CONTRACT_INTERFACE_SOURCE,
  type ContractInterfaceSource,
  type InterfaceAnswer,
} from '../../core/ports/contract-interface-source.js';
export { ID_SOURCE, type IdSource } from '../../core/ports/id-source.js';
export { INPUT_VALIDATOR, type InputValidator } from '../../core/ports/input-validator.js';
export { LOGGER, type Logger } from '../../core/ports/logger.js';

export { openLowdbStore, type LowdbStore } from '../../adapters/store-lowdb/index.js';
export { PinoLogger, silentLogger } from '../../adapters/system/index.js';
export { counter, gauge, type Figure, type Sample } from '../../adapters/metrics-prometheus/index.js';
export type { StackhooksMetrics } from '../server/service-metrics.js';
export type { Readiness } from '../../core/health/readiness.js';
export type { IngestProgress } from '../../core/use-cases/ingest-progress.js';
export { NodeRpcInterfaceSource, type NodeRpcOptions } from '../../adapters/node-rpc/index.js';
// From its own module, not the adapter's index, so that the published types never reach pg's (which
// ship in @types/pg, a package consumers should not need).
export { DatabaseStartError } from '../../adapters/store-postgres/wait-for-database.js';
