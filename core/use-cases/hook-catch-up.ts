import { createHash } from 'node:crypto';
import type { NormalizedBlock } from '../chain/block.js';
import type { Network } from '../hooks/definition.js';
import { advanceResume, finishResume } from '../hooks/lifecycle.js';
import type { HookResume, StoredHook } from '../hooks/record.js';
import type { BlockStore } from '../ports/block-store.js';
import type { Clock } from '../ports/clock.js';
import type { DeliveryQueue, OutgoingPayload } from '../ports/delivery-queue.js';
import type { HookRepository } from '../ports/hook-repository.js';
import type { Logger } from '../ports/logger.js';
import { matchedTransactions, singleBlockPayload } from './block-payload.js';

/** Canonical blocks evaluated per step: a step holds up the live stream for about this many archive reads. */
export const CATCH_UP_BLOCKS_PER_STEP = 100;

/** What a catch-up needs from the live matcher that runs it. */
export type CatchUpContext = {
  hooks: HookRepository;
  blocks: BlockStore;
  deliveries: DeliveryQueue;
  clock: Clock;
  logger: Logger;
  network: Network;
  /** The block with the calls that went unnamed when it was archived named from ABIs learned since. */
  nameCalls: (block: NormalizedBlock) => Promise<NormalizedBlock>;
  /** Run `step` with no chain event being processed meanwhile. */
  exclusive: <T>(step: () => Promise<T>) => Promise<T>;
  /** The hook reached the tip and is live now (called within the step). */
  joined: (hook: StoredHook) => void;
};

/**
 * The `webhook-id` of a resumed block: the same if the step runs again after a crash, new for
 * another resume or after a reorganization sent this one back.
 */
export function resumePayloadId(hookUuid: string, resume: HookResume, blockHash: string): string {
  const generation = `${resume.from_block_height}.${resume.rewinds ?? 0}`;
  const digest = createHash('sha256').update(`${hookUuid}|resume|${generation}|${blockHash}`).digest('hex');
  return `msg_${digest.slice(0, 32)}`;
}

/**
 * Sends a resumed hook the canonical blocks it missed, in order, then lets it join the live stream:
 * a step evaluates up to `CATCH_UP_BLOCKS_PER_STEP` archived blocks from the hook's
 * `resuming.next_block_height`, queues one live payload per block that matches (as
 * `POST …/evaluate` would shape it), and stores where it got to. Steps run one at a time with
 * chain events (`exclusive`), so the last one, which reaches the tip, hands the hook to the live
 * stream before the next block, and no live payload can overtake a resumed one. A step that runs
 * again after a crash queues the same payload ids, which the outbox skips. Counters do not move
 * for resumed blocks. A backfill engine can take this over: a resume is a backfill from the first
 * missed block to the tip that ends by joining the live stream.
 */
export class HookCatchUp {
  private readonly running = new Map<string, Promise<void>>();
  private stopped = false;

  constructor(private readonly ctx: CatchUpContext) {}

  /** Catch this hook up, unless a catch-up of it is running already. */
  want(hook: StoredHook): void {
    if (this.stopped || this.running.has(hook.uuid)) return;
    const run = this.run(hook.uuid).finally(() => this.running.delete(hook.uuid));
    this.running.set(hook.uuid, run);
  }

  /** Start no more steps; resolves once the steps under way are done (a restart goes on from there). */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.running.values());
  }

  private async run(uuid: string): Promise<void> {
    try {
      while (!this.stopped && (await this.ctx.exclusive(() => this.step(uuid)))) {
        // The next step waits its turn behind any chain event that arrived meanwhile.
      }
    } catch (err) {
      this.ctx.logger.error(
        'resuming a hook failed; it goes on when the hook changes or the service restarts',
        {
          hook: uuid,
          error: String(err),
        },
      );
    }
  }

  // One step; false once the hook is live, disabled, gone, or no longer resuming.
  private async step(uuid: string): Promise<boolean> {
    const { ctx } = this;
    const hook = await ctx.hooks.getByUuid(uuid);
    const resuming = hook?.delivery?.resuming;
    if (!hook || !resuming || !hook.status.enabled) return false;
    const tip = await ctx.blocks.tip();
    const from = resuming.next_block_height;
    const to = Math.min(tip?.height ?? from - 1, from + CATCH_UP_BLOCKS_PER_STEP - 1);
    const payloads: OutgoingPayload[] = [];
    for (let height = from; height <= to; height++) {
      const archived = await ctx.blocks.getCanonicalAt(height);
      if (!archived) continue;
      const txIndexes = matchedTransactions(hook, archived);
      if (txIndexes.length === 0) continue;
      const block = await ctx.nameCalls(archived);
      const id = resumePayloadId(uuid, resuming, block.block_identifier.hash);
      const createdAt = ctx.clock.now();
      payloads.push(
        singleBlockPayload({ hook, block, txIndexes, id, kind: 'live', network: ctx.network, createdAt }),
      );
    }
    if (payloads.length > 0) await ctx.deliveries.enqueue(payloads);
    if (!tip || to >= tip.height) {
      // The tip is reached with no chain event in between: from the next block on, the hook is live.
      const joined = await ctx.hooks.update(hook.owner, uuid, (current) => {
        const caught = advanceResume(current, from, to + 1);
        return caught === current ? current : finishResume(caught);
      });
      if (joined && !joined.delivery?.resuming) {
        ctx.logger.info('resumed hook caught up and joined the live stream', {
          hook: uuid,
          from: resuming.from_block_height,
        });
        ctx.joined(joined);
      }
      return false;
    }
    await ctx.hooks.update(hook.owner, uuid, (current) => advanceResume(current, from, to + 1));
    return true;
  }
}
