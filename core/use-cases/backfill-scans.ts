import type { NormalizedBlock } from '../chain/block.js';
import { finishBackfill, isFinished, type StoredBackfill } from '../backfill/backfill.js';
import { REMEMBERED_DEPTH, backfillPayloadId } from '../backfill/backfill-payload.js';
import { ScanPermits } from '../backfill/scan-permits.js';
import type { Network } from '../hooks/definition.js';
import { isStoreOutage } from '../hooks/errors.js';
import type { StoredHook } from '../hooks/record.js';
import type { BackfillStore } from '../ports/backfill-store.js';
import { readCanonicalRange, type BlockStore } from '../ports/block-store.js';
import type { Clock } from '../ports/clock.js';
import type { DeliveryQueue, OutgoingPayload } from '../ports/delivery-queue.js';
import type { HookRepository } from '../ports/hook-repository.js';
import type { Logger } from '../ports/logger.js';
import type { Timer } from '../ports/timer.js';
import { blockMatcher, singleBlockPayload } from './block-payload.js';
import type { BackfillRunner } from './hook-backfills.js';
import { settleOutstanding } from './backfill-outcomes.js';

/** How hard backfills may press on the machine and on receivers. */
export type BackfillLimits = {
  /** Backfill steps reading the archive at once, over all owners; more backfills take turns. */
  maxRunning: number;
  /** Payloads of one backfill handed to delivery and not yet delivered or failed; the scan waits beyond. */
  window: number;
  /** Heights read in one step at most; a step ends sooner when a chain event waits for its turn. */
  blocksPerStep: number;
  /** How often a waiting scan looks again at its payloads and the queue at other backfills. */
  pollMs: number;
  /** How often a scan's progress is written (and at every change of state). */
  saveEveryMs: number;
};

/** The defaults: two scans at once, 16 payloads in flight each, 500 heights a step. */
export const DEFAULT_BACKFILL_LIMITS: BackfillLimits = {
  maxRunning: 2,
  window: 16,
  blocksPerStep: 500,
  pollMs: 250,
  saveEveryMs: 1000,
};

/** What the scan engine needs; `exclusive` is the live matcher's turn, so no chain event lands mid-step. */
export type BackfillScanContext = {
  backfills: BackfillStore;
  hooks: HookRepository;
  blocks: BlockStore;
  deliveries: DeliveryQueue;
  clock: Clock;
  timer: Timer;
  logger: Logger;
  network: Network;
  /** The block with the calls that went unnamed when it was archived named from ABIs learned since. */
  nameCalls: (block: NormalizedBlock) => Promise<NormalizedBlock>;
  /** Run `step` with no chain event being processed meanwhile. */
  exclusive: <T>(step: () => Promise<T>) => Promise<T>;
  /** True while a chain event waits for its turn: a step then ends after the chunk in hand. */
  liveWaiting: () => boolean;
  limits: BackfillLimits;
};

/** The most heights read at once: a step reads in chunks of up to this many. */
const MAX_CHUNK = 32;

/** What a step decided: scan on, wait for delivery (or a slot), or the scan is over. */
type StepResult = 'scan' | 'wait' | 'over';

/**
 * Runs backfills. A scan reads the range's canonical blocks in ascending height, a step at a time
 * in turn with chain events (a step gives way after the chunk in hand once one waits, so a live
 * block waits for one chunk, not a whole step), and queues one `{apply: [block], rollback: []}` payload per block that
 * matches, as evaluate shapes it, through the normal outbox (one hook's payloads go out in order).
 * At most `maxRunning` steps read the archive at once, shared fairly across owners (`ScanPermits`).
 * At most `window` of a backfill's payloads wait for delivery at once, so a live payload of the
 * same hook waits behind at most that many; a backfill is done once every payload is delivered or
 * failed. Progress is stored as it goes: after a restart a scan goes on from its last stored
 * height, and the payloads it queues again carry the same ids (the outbox skips those it holds),
 * so each block is delivered at least once.
 */
export class BackfillScans implements BackfillRunner {
  private readonly scans = new Map<string, Promise<void>>();
  private readonly waiting = new Set<() => void>();
  private readonly permits: ScanPermits;
  private schedule: Promise<void> = Promise.resolve();
  private started = false;
  private stopped = false;
  private poll: { cancel(): void } | undefined;

  constructor(private readonly ctx: BackfillScanContext) {
    this.permits = new ScanPermits(ctx.limits.maxRunning);
  }

  /** Start running: backfills a previous run left unfinished go on, and new ones are taken as they come. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.wake();
    this.pollQueue();
  }

  /** Look at the queue again (a backfill was requested or cancelled). */
  wake(): void {
    this.settled();
    if (!this.started || this.stopped) return;
    this.schedule = this.schedule
      .then(() => this.takeNew())
      // A store outage is told once by the store's own health lines, not by each look that fails.
      .catch((err: unknown) => {
        if (isStoreOutage(err)) this.ctx.logger.debug('starting backfills failed', { error: String(err) });
        else this.ctx.logger.error('starting backfills failed', { error: String(err) });
      });
  }

  /** A payload was delivered or failed: scans waiting on their window look again. */
  settled(): void {
    for (const resume of [...this.waiting]) resume();
  }

  /** Backfills under way in this process (scanning, waiting for a turn, or waiting on delivery). */
  get active(): number {
    return this.scans.size;
  }

  /** Start no more steps; resolves once the steps under way are done (a restart goes on from there). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.poll?.cancel();
    this.settled();
    await this.schedule;
    await Promise.all(this.scans.values());
  }

  private pollQueue(): void {
    if (this.stopped) return;
    // Another process may queue or cancel backfills in a shared store: the queue is read again now and then.
    const wait = this.ctx.timer.wait(this.ctx.limits.pollMs * 4);
    this.poll = wait;
    void wait.elapsed.then(() => {
      this.wake();
      this.pollQueue();
    });
  }

  private async takeNew(): Promise<void> {
    for (const backfill of await this.ctx.backfills.unfinished()) {
      if (this.stopped || this.scans.has(backfill.id)) continue;
      const scan = this.run(backfill).finally(() => this.scans.delete(backfill.id));
      this.scans.set(backfill.id, scan);
    }
  }

  private async run(stored: StoredBackfill): Promise<void> {
    const { ctx } = this;
    const { id } = stored;
    try {
      let backfill: StoredBackfill | undefined = stored;
      let savedAt = ctx.clock.now();
      while (backfill && !isFinished(backfill) && !this.stopped) {
        const stepped = await this.step(backfill).catch((err: unknown) => {
          // A store away for now (a full disk, an unreachable database) costs time, not the backfill.
          if (!isStoreOutage(err)) throw err;
          ctx.logger.warn('backfill waits for its stores', { backfill: id, error: err.message });
          return undefined;
        });
        if (!stepped) {
          await this.waitForDelivery();
          continue;
        }
        const { result, progress } = stepped;
        const now = ctx.clock.now();
        if (
          result === 'over' ||
          progress.state !== backfill.state ||
          now - savedAt >= ctx.limits.saveEveryMs
        ) {
          backfill = await this.save(progress);
          savedAt = now;
        } else backfill = progress;
        if (result === 'wait') await this.waitForDelivery();
      }
      if (backfill && this.stopped && !isFinished(backfill)) await this.save(backfill);
    } catch (err) {
      ctx.logger.error('backfill failed', { backfill: id, error: String(err) });
      await ctx.backfills
        .update(id, (current) => finishBackfill(current, 'failed', ctx.clock.now(), String(err)))
        .catch(() => undefined);
    }
  }

  // Progress is written over the stored version unless that one finished meanwhile (a cancel).
  private async save(progress: StoredBackfill): Promise<StoredBackfill | undefined> {
    return this.ctx.backfills.update(progress.id, (current) => (isFinished(current) ? current : progress));
  }

  private waitForDelivery(): Promise<void> {
    return new Promise((resolve) => {
      const wait = this.ctx.timer.wait(this.ctx.limits.pollMs);
      const resume = () => {
        this.waiting.delete(resume);
        wait.cancel();
        resolve();
      };
      this.waiting.add(resume);
      void wait.elapsed.then(resume);
    });
  }

  private async step(backfill: StoredBackfill): Promise<{ result: StepResult; progress: StoredBackfill }> {
    const { ctx } = this;
    let progress = await settleOutstanding(ctx.deliveries, backfill);
    const hook = await ctx.hooks.getByUuid(backfill.hook_uuid);
    if (!hook || hook.owner !== backfill.owner) {
      return {
        result: 'over',
        progress: finishBackfill(progress, 'failed', ctx.clock.now(), 'the hook was deleted'),
      };
    }
    if (progress.next_block_height > progress.to_block_height) {
      if (progress.outstanding.length > 0) return { result: 'wait', progress };
      return { result: 'over', progress: finishBackfill(progress, 'done', ctx.clock.now()) };
    }
    const room = ctx.limits.window - progress.outstanding.length;
    // A step is worth its overhead once half the window is free; the other half keeps delivery busy.
    if (room < Math.ceil(ctx.limits.window / 2)) return { result: 'wait', progress };
    await this.permits.acquire(progress);
    try {
      if (progress.state === 'queued') {
        progress = { ...progress, state: 'running', started_at: progress.started_at ?? ctx.clock.now() };
      }
      const turn = progress;
      progress = await ctx.exclusive(() => this.scanSome(hook, turn, room));
    } finally {
      this.permits.release(progress.owner);
    }
    return { result: 'scan', progress };
  }

  // Reads from `next_block_height` up to a step's worth, and queues the payloads of what matches.
  private async scanSome(hook: StoredHook, backfill: StoredBackfill, room: number): Promise<StoredBackfill> {
    const { ctx } = this;
    const from = backfill.next_block_height;
    const tip = (await ctx.blocks.tip())?.height ?? -1;
    if (from > tip) {
      // The archive ends below the range's end: the scan is over, and says where the archive stopped.
      const beyond = { from_block_height: from, to_block_height: backfill.to_block_height };
      return { ...backfill, next_block_height: backfill.to_block_height + 1, beyond_archive: beyond };
    }
    const end = Math.min(backfill.to_block_height, tip, from + ctx.limits.blocksPerStep - 1);
    const payloads: OutgoingPayload[] = [];
    let { blocks_scanned: scanned, blocks_matched: matched, blocks_missing: missing } = backfill;
    let next = from;
    const match = blockMatcher(hook);
    while (next <= end && payloads.length < room) {
      // Read about as many blocks as should fill the room at the rate this backfill matched so far: a
      // hook matching every block reads a few, a selective one reads whole chunks; the event loop is
      // free between chunks.
      const density = (matched + 1) / (scanned + missing + 1);
      const wanted = Math.ceil((room - payloads.length) / density);
      const chunkEnd = Math.min(end, next + Math.min(MAX_CHUNK, wanted) - 1);
      for (const archived of await readCanonicalRange(ctx.blocks, next, chunkEnd)) {
        next++;
        if (!archived) {
          missing++;
          continue;
        }
        scanned++;
        const txIndexes = match(archived);
        if (!txIndexes) continue;
        matched++;
        const block = await ctx.nameCalls(archived);
        const id = backfillPayloadId(backfill.id, block.block_identifier.index);
        const createdAt = ctx.clock.now();
        const payload = singleBlockPayload({
          hook,
          block,
          txIndexes,
          id,
          kind: 'backfill',
          network: ctx.network,
          createdAt,
        });
        // A block near the tip may still leave the chain after it was sent: its rollback must name it.
        payloads.push(
          tip - block.block_identifier.index < REMEMBERED_DEPTH ? { ...payload, remembered: true } : payload,
        );
        if (payloads.length >= room) break;
      }
      // A live block waits behind this step: it goes next, and the scan takes its turn again after.
      if (ctx.liveWaiting()) break;
    }
    if (payloads.length > 0) await ctx.deliveries.enqueue(payloads);
    const done = next > backfill.to_block_height;
    return {
      ...backfill,
      next_block_height: next,
      blocks_scanned: scanned,
      blocks_matched: matched,
      blocks_missing: missing,
      payloads_queued: backfill.payloads_queued + payloads.length,
      outstanding: [...backfill.outstanding, ...payloads.map((p) => p.id)],
      // Reached within the archive: whatever the request saw above the tip then is archived now.
      beyond_archive: done ? null : backfill.beyond_archive,
    };
  }
}
