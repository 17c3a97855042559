import { LOGGER, type Logger } from '../../core/ports/logger.js';
import { createObserverServer, listenObserver } from '../../adapters/ingest-stacks-node/index.js';
import { startBlockProcessing, type BlockProcessing } from './block-processing.js';
import { blockProcessingFigures } from './block-processing-figures.js';
import { closeGracefully } from './close-gracefully.js';
import { startObserverThread } from './observer-thread-host.js';
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
  /**
   * Answer the node from a thread of its own (default true), so block processing, API work and
   * garbage collection in the instance's thread never delay a 200. Only an event log the instance
   * opened itself (its data folder or its database) can be appended to from there; an event log
   * given as an adapter is always appended to in the instance's thread.
   */
  ownThread?: boolean;
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
  const appender = stackhooks.eventLogAppender;
  const port = options.port ?? 20455;
  const host = options.host ?? '127.0.0.1';
  const graceMs = options.shutdownGraceMs ?? 10_000;
  const appended = (path: string, seconds: number, appendSeconds: number) => {
    stackhooks.metrics.events.observerPost(path, seconds, appendSeconds);
    blockProcessing.wake();
  };
  try {
    if ((options.ownThread ?? true) && appender) {
      await appender.appendElsewhere(true);
      const thread = await startObserverThread(
        { source: appender.source, port, host, bodiesInFlightBytes: undefined },
        {
          appended: (entry) => {
            appender.follow({ id: entry.id, received_at: entry.receivedAt });
            appended(entry.path, entry.seconds, entry.appendSeconds);
          },
          logger,
          space: appender.space,
        },
      ).catch(async (err: unknown) => {
        await appender.appendElsewhere(false);
        throw err;
      });
      const closeThread = async () => {
        await thread.stop(graceMs);
        await appender.appendElsewhere(false);
      };
      return { port: thread.port, blockProcessing, stop: stopping(closeThread, blockProcessing) };
    }
    const server = createObserverServer({
      log: stackhooks.eventLog,
      logger,
      onAppended: (_id, path, _receivedAt, seconds, appendSeconds) => appended(path, seconds, appendSeconds),
    });
    const bound = await listenObserver(server, port, host);
    return {
      port: bound,
      blockProcessing,
      stop: stopping(() => closeGracefully(server, graceMs), blockProcessing),
    };
  } catch (err) {
    await blockProcessing.stop();
    throw err;
  }
}

/** Stop taking posts first, then processing, so every post answered 200 is processed or kept. */
function stopping(closeObserver: () => Promise<void>, blockProcessing: BlockProcessing): () => Promise<void> {
  return async () => {
    await closeObserver();
    await blockProcessing.stop();
  };
}
