import { createHash } from 'node:crypto';
import { inject, injectable } from 'inversify';
import type { NormalizedBlock } from '../chain/block.js';
import { recordEvaluation, recordOccurrence } from '../hooks/lifecycle.js';
import type { StoredHook } from '../hooks/record.js';
import { HookIndex } from '../matching/index.js';
import { shapePayload, type BlockMatch } from '../payload/index.js';
import type { ChainEvent, ChainUpdateSink } from '../ports/chain-update-sink.js';
import { CLOCK, type Clock } from '../ports/clock.js';
import { DELIVERY_QUEUE, type DeliveryQueue, type OutgoingPayload } from '../ports/delivery-queue.js';
import { HOOK_REPOSITORY, type HookRepository } from '../ports/hook-repository.js';
import { SERVICE_SETTINGS, type ServiceSettings } from '../settings.js';
import type { HookChangeListener } from './hook-registry.js';

/** What one hook gets from one chain event. */
type HookShare = { hook: StoredHook; apply: BlockMatch[]; rollback: BlockMatch[]; evaluations: number };

/** Whether a hook takes part in the live stream. */
function isLive(hook: StoredHook): boolean {
  return hook.status.enabled && hook.status.status !== 'expired';
}

/** How many more live blocks a hook may evaluate before its evaluation limit expires it. */
function evaluationsLeft(hook: StoredHook): number {
  const limit = hook.definition.options?.expire_after_evaluations;
  return limit == null ? Infinity : Math.max(0, limit - hook.status.evaluated_block_count);
}

/** The `webhook-id` of a live payload: the same whenever the same chain event is processed again. */
export function livePayloadId(hookUuid: string, event: ChainEvent): string {
  const digest = createHash('sha256')
    .update(hookUuid)
    .update(`|${event.eventId}|`)
    .update(event.apply.map((b) => b.block_identifier.hash).join(','))
    .update('|')
    .update(event.rollback.map((b) => b.block_identifier.hash).join(','))
    .digest('hex');
  return `msg_${digest.slice(0, 32)}`;
}

/**
 * The live stream: every canonical chain change is matched against every enabled hook through the
 * index, one payload per hook with a match is shaped and queued durably, and the lifecycle counters
 * move (evaluations for every enabled hook, an occurrence per payload, expiry at a limit).
 */
@injectable()
export class LiveMatching implements ChainUpdateSink, HookChangeListener {
  private readonly index = new HookIndex();
  private readonly live = new Map<string, StoredHook>();
  private loaded: Promise<void> | undefined;

  constructor(
    @inject(HOOK_REPOSITORY) private readonly hooks: HookRepository,
    @inject(DELIVERY_QUEUE) private readonly deliveries: DeliveryQueue,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(SERVICE_SETTINGS) private readonly settings: ServiceSettings,
  ) {}

  /** Keep the index in step with the registry: a change takes effect from the next chain event. */
  hookChanged(uuid: string, hook: StoredHook | undefined): void {
    if (hook && isLive(hook)) {
      this.live.set(uuid, hook);
      this.index.add(uuid, hook.definition.filters.events);
    } else {
      this.live.delete(uuid);
      this.index.remove(uuid);
    }
  }

  /** How many hooks the index holds. */
  async liveHookCount(): Promise<number> {
    await this.load();
    return this.live.size;
  }

  /** Match one chain change, queue its payloads, then count it against every live hook. */
  async chainUpdated(event: ChainEvent): Promise<void> {
    await this.load();
    const shares = await this.share(event);
    const now = this.clock.now();
    const payloads: OutgoingPayload[] = [];
    for (const share of shares.values()) {
      if (share.apply.length === 0 && share.rollback.length === 0) continue;
      payloads.push(this.payloadFor(share, event, now));
    }
    if (payloads.length > 0) await this.deliveries.enqueue(payloads);
    await this.count(shares, new Set(payloads.map((p) => p.hook_uuid)), event, now);
  }

  private async share(event: ChainEvent): Promise<Map<string, HookShare>> {
    const shares = new Map<string, HookShare>();
    const shareOf = (hook: StoredHook) => {
      let share = shares.get(hook.uuid);
      if (!share) {
        share = {
          hook,
          apply: [],
          rollback: [],
          evaluations: Math.min(event.apply.length, evaluationsLeft(hook)),
        };
        shares.set(hook.uuid, share);
      }
      return share;
    };
    for (const hook of this.live.values()) shareOf(hook);
    if (event.rollback.length > 0) {
      // A rollback names only blocks a hook was sent, with the transactions it was sent.
      const sent = await this.deliveries.sentApplies(event.rollback.map((b) => b.block_identifier.hash));
      for (const block of event.rollback) {
        for (const [uuid, blocks] of sent) {
          const txIndexes = blocks.get(block.block_identifier.hash);
          const hook = this.live.get(uuid);
          if (hook && txIndexes) shareOf(hook).rollback.push({ block, txIndexes });
        }
      }
    }
    event.apply.forEach((block: NormalizedBlock, position) => {
      this.index.forEachMatch(block, (uuid, txIndexes) => {
        const share = shares.get(uuid);
        // A hook at its evaluation limit part-way through this event sees only the blocks before it.
        if (share && position < share.evaluations) share.apply.push({ block, txIndexes });
      });
    });
    return shares;
  }

  private payloadFor(share: HookShare, event: ChainEvent, now: number): OutgoingPayload {
    const { hook } = share;
    const body = shapePayload({
      hook: { uuid: hook.uuid, name: hook.definition.name, options: hook.definition.options },
      network: this.settings.network,
      apply: share.apply,
      rollback: share.rollback,
    });
    return {
      id: livePayloadId(hook.uuid, event),
      hook_uuid: hook.uuid,
      owner: hook.owner,
      url: hook.definition.action.url,
      kind: 'live',
      apply: share.apply.map(({ block, txIndexes }) => ({
        ...block.block_identifier,
        tx_indexes: [...txIndexes],
      })),
      rollback: share.rollback.map(({ block }) => block.block_identifier),
      body,
      created_at: now,
    };
  }

  // Evaluations are counted for every live hook, occurrences for those that got a payload; hooks
  // that expire leave the index.
  private async count(
    shares: Map<string, HookShare>,
    withPayload: Set<string>,
    event: ChainEvent,
    now: number,
  ): Promise<void> {
    if (event.apply.length === 0 && withPayload.size === 0) return;
    const heights = event.apply.map((b) => b.block_identifier.index);
    const changed = await this.hooks.updateByUuids([...shares.keys()], (stored) => {
      const share = shares.get(stored.uuid);
      if (!share) return undefined;
      let hook = stored;
      for (const height of heights.slice(0, share.evaluations)) hook = recordEvaluation(hook, height, now);
      if (withPayload.has(stored.uuid)) {
        const top = share.apply.at(-1)?.block ?? share.rollback[0]?.block;
        hook = recordOccurrence(hook, top ? top.block_identifier.index : (heights.at(-1) ?? 0), now);
      }
      return hook === stored ? undefined : hook;
    });
    for (const hook of changed) this.hookChanged(hook.uuid, hook);
  }

  private load(): Promise<void> {
    this.loaded ??= this.hooks.listAll().then((all) => {
      for (const hook of all) if (!this.live.has(hook.uuid)) this.hookChanged(hook.uuid, hook);
    });
    return this.loaded;
  }
}
