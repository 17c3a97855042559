import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../../core/ports/logger.js';
import type { Stackhooks } from './container.js';

/** The condition raised while this ingest process cannot process blocks and no other is known to. */
export const INGEST_INACTIVE = 'ingest_inactive';

/** Plain counters a metrics adapter can read (they only grow). */
export type BlockProcessingCounters = {
  /** Times this process took the ingest lock (the first time included). */
  lockAcquisitions: number;
  /** Times it lost the lock with its database connection. */
  lockLosses: number;
  /** Processing runs that failed and were retried (most often a database that went away). */
  retries: number;
};

/** Block processing in an ingest process. */
export type BlockProcessing = {
  /** Process what the log holds now (after each append); nothing happens while the lock is not held. */
  wake(): void;
  /** Whether this process holds the ingest lock and processes blocks. */
  readonly active: boolean;
  readonly counters: Readonly<BlockProcessingCounters>;
  /** Stop processing after the entry in hand and let go of the lock. */
  stop(): Promise<void>;
};

/**
 * How often the holder of the lock looks for entries it was not woken for: on Postgres, another
 * ingest process's observer (a standby's, or the one the node posts to) appends to the same log.
 */
const POLL_MS = 1_000;
/** Back-off between tries to take the lock or to process again. */
const FIRST_RETRY_MS = 200;
const MAX_RETRY_MS = 2_000;

/**
 * Keep block processing going through lost database connections. Only the holder of the ingest
 * lock processes; the lock is held on a connection of its own, and when that connection is lost
 * (a database restart, a failover, a killed backend) processing pauses after the entry in hand and
 * the lock is taken again with back-off, by this process or by a standby, within seconds of the
 * database's return. While this process can neither process nor see another holder, the
 * `ingest_inactive` condition is raised. A processing run that fails (the database went away
 * while the lock survived) is retried with back-off; no entry is skipped for it. The holder also
 * looks for new entries every second, since other processes' observers append to a shared log.
 */
export function startBlockProcessing(stackhooks: Stackhooks, logger: Logger): BlockProcessing {
  const { ingest, conditions, liveMatching } = stackhooks;
  const counters: BlockProcessingCounters = { lockAcquisitions: 0, lockLosses: 0, retries: 0 };
  const abort = new AbortController();
  let active = false;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;
  let poll: NodeJS.Timeout | undefined;
  let lastFailed: Promise<void> | undefined;
  const now = () => Date.now();
  const stopped = new Promise<void>((resolve) => abort.signal.addEventListener('abort', () => resolve()));
  // Nothing is processed until the lock is held (an observer may append before then).
  void ingest.pause();

  const wake = (): void => {
    if (!active) return;
    const run = ingest.wake();
    run.then(
      () => {
        failures = 0;
      },
      (err: unknown) => {
        // Calls during one run share its outcome: one failure is one retry.
        if (!active || run === lastFailed) return;
        lastFailed = run;
        counters.retries++;
        const delay = Math.min(FIRST_RETRY_MS * 2 ** failures, MAX_RETRY_MS);
        failures++;
        logger.warn('block processing failed; retrying', { error: String(err), retry_in_ms: delay });
        clearTimeout(retry);
        retry = setTimeout(wake, delay);
      },
    );
  };

  const inactive = (reason: string) => conditions.raise(INGEST_INACTIVE, reason, now());

  const holdLock = async (): Promise<void> => {
    let delay = FIRST_RETRY_MS;
    while (!abort.signal.aborted) {
      let lock: Awaited<ReturnType<Stackhooks['takeIngestLock']>>;
      let unwatch: () => Promise<void>;
      try {
        lock = await stackhooks.takeIngestLock({
          signal: abort.signal,
          onWaiting: () => {
            // Another process holds the lock, so blocks are being processed: nothing is wrong here.
            conditions.clear(INGEST_INACTIVE);
            logger.info('another ingest process is active; waiting for its lock');
          },
        });
      } catch (err) {
        if (abort.signal.aborted) return;
        inactive(`block processing is paused: the ingest lock cannot be taken (${String(err)}); retrying`);
        logger.warn('could not take the ingest lock; retrying', { error: String(err), retry_in_ms: delay });
        await sleep(delay, undefined, { signal: abort.signal }).catch(() => undefined);
        delay = Math.min(delay * 2, MAX_RETRY_MS);
        continue;
      }
      try {
        unwatch = await stackhooks.followHookChanges();
      } catch (err) {
        await lock.release().catch(() => undefined);
        if (abort.signal.aborted) return;
        inactive(`block processing is paused: hook changes cannot be followed (${String(err)}); retrying`);
        logger.warn('could not follow hook changes; retrying', { error: String(err), retry_in_ms: delay });
        await sleep(delay, undefined, { signal: abort.signal }).catch(() => undefined);
        delay = Math.min(delay * 2, MAX_RETRY_MS);
        continue;
      }
      delay = FIRST_RETRY_MS;
      failures = 0;
      counters.lockAcquisitions++;
      // Another process may have processed meanwhile, and hook changes may have gone unheard.
      liveMatching.resync();
      ingest.resume();
      active = true;
      conditions.clear(INGEST_INACTIVE);
      // The backlog left by the pause (or by a stop), so the log tells what resuming has to catch up.
      const behind = await stackhooks.eventLog.position().then(
        (at) => ({ entries_behind: Math.max(0, (at.newest?.id ?? 0) - at.processed) }),
        () => ({}),
      );
      logger.info('block processing active', behind);
      // Resumed hooks catch up in the process that matches chain events, in turn with them.
      // (The first chain event starts them too, should this read fail.)
      await liveMatching
        .startResumes()
        .catch((err: unknown) => logger.warn('could not start the resumes waiting', { error: String(err) }));
      // Entries stored before a crash, a stop or while waiting are processed now.
      wake();
      poll = setInterval(wake, POLL_MS);
      poll.unref();
      await Promise.race([lock.lost, stopped]);
      active = false;
      clearInterval(poll);
      clearTimeout(retry);
      if (!abort.signal.aborted) {
        counters.lockLosses++;
        inactive(
          'block processing is paused: the ingest lock was lost with its database connection; taking it again',
        );
        logger.error('ingest lock lost; pausing block processing and taking the lock again');
      }
      await ingest.pause();
      await unwatch().catch(() => undefined);
      await lock.release().catch(() => undefined);
    }
  };
  const holding = holdLock();

  return {
    wake,
    get active() {
      return active;
    },
    counters,
    async stop() {
      abort.abort();
      active = false;
      clearInterval(poll);
      clearTimeout(retry);
      await holding;
      await ingest.pause();
      conditions.clear(INGEST_INACTIVE);
    },
  };
}
