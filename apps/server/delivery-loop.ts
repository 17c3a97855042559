import type { Logger } from '../../core/ports/logger.js';
import type { DeliveryQueue } from '../../core/ports/delivery-queue.js';
import type { WebhookDispatcher } from '../../core/use-cases/webhook-dispatcher.js';

/** The longest the loop sleeps, so a clock jump or a missed wake-up costs at most this. */
const MAX_SLEEP_MS = 1_000;
/**
 * How often delivered and failed payloads past the retention are pruned (and delivered bodies past
 * their window let go): a settled payload leaves the log within this long of expiring. A shorter
 * retention prunes more often, at twice its rate.
 */
const PRUNE_EVERY_MS = 30_000;

/** A running delivery loop. */
export type DeliveryLoop = {
  /** Start due payloads now (after an enqueue or a redelivery). */
  wake(): void;
  /** Start nothing new; wait for attempts in flight. */
  stop(): Promise<void>;
};

/**
 * Drive the dispatcher: pump at once when payloads arrive, and otherwise sleep until the next
 * pending payload is due or the next attempt turns slow (at most a second). Retention is applied
 * at start and then continuously, every 30 seconds (more often for a retention under a minute).
 */
export function startDeliveryLoop(options: {
  dispatcher: WebhookDispatcher;
  queue: DeliveryQueue;
  retentionMs: number;
  /** How long delivered bodies are kept; a window under a minute is pruned at twice its rate too. */
  deliveredBodyRetentionMs?: number;
  logger: Logger;
}): DeliveryLoop {
  const { dispatcher, queue, logger } = options;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  // Attempts recorded together settle together: one look at the next due time serves them all,
  // and a call while one is under way asks for one more after it, not one each.
  let scheduling = false;
  let scheduleAgain = false;
  const schedule = async () => {
    if (stopped) return;
    if (scheduling) {
      scheduleAgain = true;
      return;
    }
    scheduling = true;
    try {
      do {
        scheduleAgain = false;
        const next = await dispatcher.nextDueAt().catch(() => undefined);
        if (stopped) return;
        const now = Date.now();
        // Something already due is in flight (or waiting for a slot): its attempt ending pumps
        // again, so the timer is only the safety net then; sleeping 0 here would spin.
        let wait = next === undefined || next <= now ? MAX_SLEEP_MS : Math.min(MAX_SLEEP_MS, next - now);
        // An attempt turning slow frees a normal slot: look at it on time.
        const review = dispatcher.nextReviewAt();
        if (review !== undefined) wait = Math.min(wait, Math.max(1, review - now));
        clearTimeout(timer);
        timer = setTimeout(tick, wait);
      } while (scheduleAgain);
    } finally {
      scheduling = false;
    }
  };
  const tick = () => {
    dispatcher.reviewLanes();
    dispatcher.pump().finally(() => void schedule());
  };
  // A prune still running (a large delete on a busy database) is not started again on top of itself.
  let pruning: Promise<unknown> | undefined;
  const prune = () => {
    const now = Date.now();
    pruning ??= queue
      .prune(now - options.retentionMs, now)
      .then((count) => count > 0 && logger.info('delivery log pruned', { payloads: count }))
      .catch((err: unknown) => logger.error('delivery log prune failed', { error: String(err) }))
      .finally(() => (pruning = undefined));
  };
  // A settled attempt may have set a retry time: sleep until then rather than the safety net.
  dispatcher.onSettled(() => void schedule());
  const shortest = Math.min(options.retentionMs, options.deliveredBodyRetentionMs ?? Infinity);
  const pruner = setInterval(prune, pruneInterval(shortest));
  pruner.unref();
  void prune();
  tick();

  return {
    wake: tick,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      clearInterval(pruner);
      await dispatcher.stop();
      await pruning;
    },
  };
}

/** How often to prune for a retention: every 30 s, or twice a retention shorter than a minute. */
export function pruneInterval(retentionMs: number): number {
  return Math.max(100, Math.min(PRUNE_EVERY_MS, Math.floor(retentionMs / 2)));
}

/** Parse a duration like `500ms`, `30s`, `2m`, `1h`, `7d` or a bare number of milliseconds. */
export function parseDuration(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text);
  if (!match) return undefined;
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] ?? 'ms']!;
  return Math.round(Number(match[1]) * unit);
}
