import { LOGGER, type Logger } from '../../core/ports/logger.js';
import { createObserverServer, listenObserver } from '../../adapters/ingest-stacks-node/index.js';
import { startBlockProcessing, type BlockProcessing } from './block-processing.js';
import { blockProcessingFigures } from './block-processing-figures.js';
import { closeGracefully } from './close-gracefully.js';
import type { Stackhooks } from './container.js';

/** Where the event observer listens; every field has a default. */
export type ObserverListenOptions = {
  /** Port a stacks-node's `[[events_observer]]` posts to (default 20455; 0 picks a free one). */
  port?: number;
  /** Interface to bind (default 127.0.0.1: a node is normally on the same machine). */
  host?: string;
  /** How long stop() lets posts in flight finish, in ms (default 10,000). */
  shutdownGraceMs?: number;
  /** Where its log lines go (default: the instance's logger). */
  logger?: Logger;
};

/** A running event observer with the block processing behind it. */
export type RunningObserver = {
  /** The bound port (useful with port 0). */
  port: number;
  /** Whether this process processes blocks (on Postgres, one ingest process at a time does), and counters. */
  blockProcessing: BlockProcessing;
  /** Stop accepting posts, let those in flight finish, stop processing after the block in hand. */
  stop(): Promise<void>;
};

/**
 * How an instance receives blocks: the HTTP endpoint a stacks-node posts its events to, writing
 * each post to the instance's durable event log, and the processing that turns the log into
 * archived blocks, matches and queued payloads.
 */
export async function startObserver(
  stackhooks: Stackhooks,
  options: ObserverListenOptions = {},
): Promise<RunningObserver> {
  const logger = options.logger ?? stackhooks.container.get<Logger>(LOGGER);
  const blockProcessing = startBlockProcessing(stackhooks, logger);
  stackhooks.metrics.add(blockProcessingFigures(blockProcessing));
  const server = createObserverServer({
    log: stackhooks.eventLog,
    logger,
    onAppended: (_id, path) => {
      stackhooks.metrics.events.observerPost(path);
      blockProcessing.wake();
    },
  });
  let port: number;
  try {
    port = await listenObserver(server, options.port ?? 20455, options.host ?? '127.0.0.1');
  } catch (err) {
    await blockProcessing.stop();
    throw err;
  }
  return {
    port,
    blockProcessing,
    async stop() {
      await closeGracefully(server, options.shutdownGraceMs ?? 10_000);
      await blockProcessing.stop();
    },
  };
}
