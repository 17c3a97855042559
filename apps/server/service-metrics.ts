import type { Registry } from 'prom-client';
import type { ServiceConditions } from '../../core/health/service-conditions.js';
import { missingHeights } from '../../core/chain/chain-gap.js';
import type { ChainState } from '../../core/ports/block-store.js';
import type { DeliveryQueue } from '../../core/ports/delivery-queue.js';
import type { ChainCounters } from '../../core/use-cases/chain-notices.js';
import type { HookRepository } from '../../core/ports/hook-repository.js';
import type { BlockIngest } from '../../core/use-cases/ingest-blocks.js';
import type { ContractAbis } from '../../core/use-cases/contract-abis.js';
import type { IngestProgress } from '../../core/use-cases/ingest-progress.js';
import type { WebhookDispatcher } from '../../core/use-cases/webhook-dispatcher.js';
import type { DatabaseCounters } from '../../adapters/store-postgres/connection-health.js';
import {
  EventMetrics,
  METRICS_CONTENT_TYPE,
  createMetricsRegistry,
  counter,
  gauge,
  registerFigures,
  type Figure,
} from '../../adapters/metrics-prometheus/index.js';

/** This instance's Prometheus metrics. */
export type StackhooksMetrics = {
  registry: Registry;
  /** The figures that follow events (blocks, attempts, requests, observer posts). */
  events: EventMetrics;
  /** Add figures read at each scrape: one entry each. */
  add(figures: readonly Figure[]): void;
  /** The Prometheus text exposition of every figure. */
  exposition(): Promise<string>;
  contentType: string;
};

/** What the instance's figures are read from. */
export type MetricSources = {
  info: { version: string; network: string; store: 'embedded' | 'postgres' };
  now: () => number;
  /** When this instance started (ms): the age of the last block counts from here before the first. */
  startedAt: number;
  ingest: BlockIngest;
  dispatcher: WebhookDispatcher;
  contractAbis: ContractAbis;
  conditions: ServiceConditions;
  hooks: HookRepository;
  deliveries: DeliveryQueue;
  /** Where block processing stands, read once per scrape and shared by its figures. */
  progress: () => Promise<IngestProgress>;
  /** What blocks in did to the chain since start (gaps, orphans, unreadable and quarantined bodies). */
  chain: { readonly counters: Readonly<ChainCounters> };
  /** The chain's health as the block store keeps it (open gaps, held orphans), read once per scrape. */
  chainState: () => Promise<ChainState>;
  database: { readonly reachable: boolean; readonly counters: Readonly<DatabaseCounters> } | undefined;
};

/** Build the registry, follow the instance's events, and register the figures read at scrape time. */
export function instrumentStackhooks(sources: MetricSources): StackhooksMetrics {
  const registry = createMetricsRegistry();
  const events = new EventMetrics(registry);
  sources.ingest.onBlock((report) => events.blockEntry(report));
  sources.dispatcher.onAttempt((report) => events.attempt(report));
  registerFigures(registry, instanceFigures(sources));
  return {
    registry,
    events,
    add: (figures) => registerFigures(registry, figures),
    exposition: () => registry.metrics(),
    contentType: METRICS_CONTENT_TYPE,
  };
}

const seconds = (ms: number) => ms / 1000;

function instanceFigures(s: MetricSources): Figure[] {
  const delivery = () => s.dispatcher.counters;
  const abis = () => s.contractAbis.counters;
  const seenConditions = new Set<string>();
  return [
    gauge(
      'stackhooks_info',
      'This process: version, network and store (always 1)',
      () => [{ labels: s.info, value: 1 }],
      ['version', 'network', 'store'],
    ),
    // Where the chain stands (read from the stores, so every process tells the same).
    gauge(
      'stackhooks_chain_tip_height',
      'Height of the canonical tip (0 before the first block)',
      async () => (await s.progress()).tip?.height ?? 0,
    ),
    gauge(
      'stackhooks_last_block_timestamp_seconds',
      'When the node posted the last block processed (unix seconds; 0 before the first)',
      async () => seconds((await s.progress()).lastBlockAt ?? 0),
    ),
    gauge(
      'stackhooks_seconds_since_last_block',
      'Seconds since the node posted the last block processed (since this process started, before the first)',
      async () => seconds(s.now() - ((await s.progress()).lastBlockAt ?? s.startedAt)),
    ),
    gauge(
      'stackhooks_ingest_lag_entries',
      'Posts of the node stored but not yet processed',
      async () => (await s.progress()).entriesBehind,
    ),
    gauge(
      'stackhooks_ingest_lag_seconds',
      'How long the oldest post not yet processed has waited (0 when caught up)',
      async () => seconds((await s.progress()).lagMs),
    ),
    // Hooks and the outbox.
    gauge(
      'stackhooks_hooks',
      'Hooks by status and enabled',
      async () =>
        (await s.hooks.statusCounts()).map(({ status, enabled, count }) => ({
          labels: { status, enabled: String(enabled) },
          value: count,
        })),
      ['status', 'enabled'],
    ),
    gauge(
      'stackhooks_outbox_pending',
      'Payloads waiting for delivery',
      async () => (await s.deliveries.pendingSummary()).pending,
    ),
    gauge(
      'stackhooks_outbox_oldest_pending_age_seconds',
      'Age of the oldest payload at the head of a hook’s queue (0 when none waits)',
      async () => {
        const oldest = (await s.deliveries.pendingSummary()).oldestHeadCreatedAt;
        return oldest === undefined ? 0 : seconds(Math.max(0, s.now() - oldest));
      },
    ),
    // Delivery, as this process's dispatcher counts it.
    counter(
      'stackhooks_hooks_interrupted_total',
      'Hooks interrupted because a live payload’s retries were used up',
      () => delivery().hooksInterrupted,
    ),
    counter(
      'stackhooks_delivery_moved_to_slow_lane_total',
      'Attempts that ran past the slow threshold and moved to the slow lane',
      () => delivery().movedToSlowLane,
    ),
    counter(
      'stackhooks_delivery_held_total',
      'Payloads put back unsent, by reason',
      () => [
        { labels: { reason: 'slow_lane_full' }, value: delivery().heldForSlowLane },
        { labels: { reason: 'circuit_open' }, value: delivery().heldForCircuit },
      ],
      ['reason'],
    ),
    counter(
      'stackhooks_delivery_circuits_opened_total',
      'Origin circuits that opened',
      () => delivery().circuitsOpened,
    ),
    counter(
      'stackhooks_delivery_circuits_closed_total',
      'Origin circuits that closed again',
      () => delivery().circuitsClosed,
    ),
    gauge(
      'stackhooks_delivery_in_flight',
      'Attempts in flight, by lane',
      () => [
        { labels: { lane: 'normal' }, value: delivery().now.normalInFlight },
        { labels: { lane: 'slow' }, value: delivery().now.slowInFlight },
      ],
      ['lane'],
    ),
    gauge(
      'stackhooks_delivery_slow_hooks',
      'Hooks whose attempts start in the slow lane',
      () => delivery().now.slowHooks,
    ),
    gauge(
      'stackhooks_delivery_open_circuits',
      'Origins whose circuit is open',
      () => delivery().now.openCircuits,
    ),
    // Contract ABIs for naming call arguments.
    counter(
      'stackhooks_unnamed_contract_calls_total',
      'Contract calls whose arguments went out unnamed (no ABI known)',
      () => abis().unnamed_calls,
    ),
    counter(
      'stackhooks_node_abi_requests_total',
      'ABI requests to the stacks-node RPC, by answer',
      () => [
        { labels: { answer: 'found' }, value: abis().node_found },
        { labels: { answer: 'not_found' }, value: abis().node_not_found },
        { labels: { answer: 'refused' }, value: abis().node_refused },
        { labels: { answer: 'unreachable' }, value: abis().node_unreachable },
      ],
      ['answer'],
    ),
    // What keeps the service from part of its work (1 while raised; 0 once cleared).
    gauge(
      'stackhooks_condition',
      'Conditions raised now (1) or raised before and cleared (0), by name',
      () => {
        const raised = s.conditions.list().map((c) => c.name);
        for (const name of raised) seenConditions.add(name);
        return [...seenConditions].map((name) => ({
          labels: { name },
          value: raised.includes(name) ? 1 : 0,
        }));
      },
      ['name'],
    ),
    ...chainFigures(s),
    ...databaseFigures(s.database),
  ];
}

function chainFigures(s: MetricSources): Figure[] {
  const chain = () => s.chain.counters;
  return [
    counter(
      'stackhooks_blocks_archived_total',
      'New blocks stored (duplicates not counted)',
      () => chain().blocksArchived,
    ),
    counter(
      'stackhooks_gaps_opened_total',
      'Gaps opened: a block came whose parent was never received',
      () => chain().gapsOpened,
    ),
    counter(
      'stackhooks_gaps_closed_total',
      'Gaps closed: filled, switched away from, or merged into a wider one',
      () => chain().gapsClosed,
    ),
    counter(
      'stackhooks_orphans_held_total',
      'Blocks at or below the tip held because their parent is unknown',
      () => chain().orphansHeld,
    ),
    counter(
      'stackhooks_orphans_dropped_total',
      'Held orphans dropped (too many, or too deep)',
      () => chain().orphansDropped,
    ),
    counter(
      'stackhooks_blocks_unreadable_total',
      'Blocks archived with transactions that could not be decoded',
      () => chain().unreadableBlocks,
    ),
    counter(
      'stackhooks_bodies_quarantined_total',
      'Bodies that could not become a block at all, kept aside with their reason',
      () => chain().quarantinedBodies,
    ),
    gauge('stackhooks_chain_open_gaps', 'Gaps open now', async () => (await s.chainState()).gaps.length),
    gauge('stackhooks_chain_missing_blocks', 'Heights missing in the open gaps', async () =>
      (await s.chainState()).gaps.reduce((sum, gap) => sum + missingHeights(gap), 0),
    ),
    gauge('stackhooks_held_orphans', 'Orphans held now', async () => (await s.chainState()).heldOrphans),
  ];
}

function databaseFigures(database: MetricSources['database']): Figure[] {
  if (!database) return [];
  return [
    gauge('stackhooks_database_reachable', 'Whether PostgreSQL answers (1) or not (0)', () =>
      database.reachable ? 1 : 0,
    ),
    counter(
      'stackhooks_database_connection_failures_total',
      'Queries or idle connections that failed for a lost or refused connection',
      () => database.counters.connectionFailures,
    ),
    counter(
      'stackhooks_database_outages_total',
      'Times PostgreSQL became unreachable',
      () => database.counters.outages,
    ),
  ];
}
