import { Counter, Histogram, type Registry } from 'prom-client';
import type { AttemptReport } from '../../core/use-cases/attempt-report.js';
import type { BlockEntryReport } from '../../core/use-cases/block-report.js';

/** Paths a stacks-node posts to; any other is counted as `other`, so a label cannot grow without bound. */
const OBSERVER_PATHS = new Set([
  '/new_block',
  '/new_burn_block',
  '/new_mempool_tx',
  '/drop_mempool_tx',
  '/new_microblocks',
  '/mined_block',
  '/mined_microblock',
  '/mined_nakamoto_block',
  '/stackerdb_chunks',
  '/proposal_response',
  '/attachments/new',
]);

/** Buckets of a post's time and of its append: a node's post is answered in milliseconds. */
const OBSERVER_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** The status class of an attempt's answer: `2xx` … `5xx`, `timeout`, or `no_answer` (refused, reset, DNS). */
export function statusClass(status: number | null, timedOut: boolean): string {
  if (status !== null) return `${Math.floor(status / 100)}xx`;
  return timedOut ? 'timeout' : 'no_answer';
}

/**
 * The figures that follow events as they happen: blocks posted and processed, reorgs,
 * matches, attempts and API requests. Counted per process; none is labelled by hook (with 100,000
 * hooks that would be 100,000 series a figure; a hook's own figures are in its delivery log).
 */
export class EventMetrics {
  private readonly observerPosts: Counter<'path'>;
  private readonly observerPostSeconds: Histogram;
  private readonly eventLogAppendSeconds: Histogram;
  private readonly blocksReceived: Counter;
  private readonly blocksProcessed: Counter;
  private readonly processingSeconds: Histogram;
  private readonly reorgs: Counter;
  private readonly reorgDepth: Histogram;
  private readonly hookMatches: Counter;
  private readonly payloadsQueued: Counter;
  private readonly attempts: Counter<'outcome' | 'status_class'>;
  private readonly attemptSeconds: Histogram;
  private readonly requestSeconds: Histogram<'method' | 'route' | 'status'>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.observerPosts = new Counter({
      name: 'stackhooks_observer_posts_total',
      help: 'Posts of the stacks-node stored by this process’s observer, by path',
      labelNames: ['path'],
      registers,
    });
    this.observerPostSeconds = new Histogram({
      name: 'stackhooks_observer_post_seconds',
      help: 'Time the observer took to store a post of the node, from its arrival to its 200',
      buckets: OBSERVER_BUCKETS,
      registers,
    });
    this.eventLogAppendSeconds = new Histogram({
      name: 'stackhooks_event_log_append_seconds',
      help: 'Time the event log took to make one post of the node durable: the store’s part of a post’s time',
      buckets: OBSERVER_BUCKETS,
      registers,
    });
    this.blocksReceived = new Counter({
      name: 'stackhooks_blocks_received_total',
      help: 'Blocks (/new_block posts) stored by this process’s observer',
      registers,
    });
    this.blocksProcessed = new Counter({
      name: 'stackhooks_blocks_processed_total',
      help: 'Blocks processed by this process: archived, matched and their payloads queued',
      registers,
    });
    this.processingSeconds = new Histogram({
      name: 'stackhooks_block_processing_seconds',
      help: 'Time to process one block, from reading it to its payloads stored',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.reorgs = new Counter({
      name: 'stackhooks_reorgs_total',
      help: 'Reorganizations: blocks that rolled canonical blocks back',
      registers,
    });
    this.reorgDepth = new Histogram({
      name: 'stackhooks_reorg_depth_blocks',
      help: 'Canonical blocks rolled back by one reorganization',
      buckets: [1, 2, 3, 5, 10, 20, 50, 100],
      registers,
    });
    this.hookMatches = new Counter({
      name: 'stackhooks_hook_matches_total',
      help: 'Hooks matched by a chain change, summed over changes (a hook matching one change counts once)',
      registers,
    });
    this.payloadsQueued = new Counter({
      name: 'stackhooks_payloads_queued_total',
      help: 'Live payloads queued for delivery (applies and rollbacks)',
      registers,
    });
    this.attempts = new Counter({
      name: 'stackhooks_delivery_attempts_total',
      help: 'Webhook attempts sent, by outcome (delivered, retrying, failed: given up) and status class',
      labelNames: ['outcome', 'status_class'],
      registers,
    });
    this.attemptSeconds = new Histogram({
      name: 'stackhooks_delivery_attempt_seconds',
      help: 'Receiver time of one attempt, from the connection to the end of the answer',
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.requestSeconds = new Histogram({
      name: 'stackhooks_http_request_duration_seconds',
      help: 'API requests by method, route template and status, with their time',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    // Zero from the start, so a rate over a fresh process is 0 rather than no data.
    for (const outcome of ['delivered', 'retrying', 'failed'])
      this.attempts.inc({ outcome, status_class: outcome === 'delivered' ? '2xx' : '5xx' }, 0);
  }

  /** The observer stored a post of the node, `seconds` after it arrived, its append taking `appendSeconds`. */
  observerPost(path: string, seconds: number, appendSeconds: number): void {
    this.observerPosts.inc({ path: OBSERVER_PATHS.has(path) ? path : 'other' });
    this.observerPostSeconds.observe(seconds);
    this.eventLogAppendSeconds.observe(appendSeconds);
    if (path === '/new_block') this.blocksReceived.inc();
  }

  /** Block processing finished with a `/new_block` entry. */
  blockEntry(report: BlockEntryReport): void {
    // A body that could not become a block is counted with the chain's figures (quarantined).
    if (report.kind === 'unreadable') return;
    this.blocksProcessed.inc();
    this.processingSeconds.observe(report.ms / 1000);
    if (report.rolledBack > 0) {
      this.reorgs.inc();
      this.reorgDepth.observe(report.rolledBack);
    }
    this.hookMatches.inc(report.hooksMatched ?? 0);
    this.payloadsQueued.inc(report.payloadsQueued ?? 0);
  }

  /** An attempt was sent and its outcome decided. */
  attempt(report: AttemptReport): void {
    this.attempts.inc({ outcome: report.outcome, status_class: statusClass(report.status, report.timedOut) });
    this.attemptSeconds.observe(report.latencyMs / 1000);
  }

  /** An API request ended; `route` is its template (`/chainhooks/v1/me/:uuid`), never the raw path. */
  request(request: { method: string; route: string; status: number; ms: number }): void {
    this.requestSeconds.observe(
      { method: request.method, route: request.route, status: String(request.status) },
      request.ms / 1000,
    );
  }
}
