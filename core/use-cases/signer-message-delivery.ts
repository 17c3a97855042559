import { createHash } from 'node:crypto';
import { inject, injectable } from 'inversify';
import { queuedV1Body } from '../chainhook-v1/shape-v1-payload.js';
import {
  shapeSignerMessagePayload,
  signerMessageEvents,
  signerMessageTest,
  type SignerMessageEvent,
} from '../chainhook-v1/signer-messages.js';
import type { NetworkPredicate } from '../chainhook-v1/predicate.js';
import type { StoredHook } from '../hooks/record.js';
import { BLOCK_STORE, type BlockStore } from '../ports/block-store.js';
import { CLOCK, type Clock } from '../ports/clock.js';
import { DELIVERY_QUEUE, type DeliveryQueue, type OutgoingPayload } from '../ports/delivery-queue.js';
import type { RawEvent } from '../ports/event-log.js';
import { LOGGER, type Logger } from '../ports/logger.js';
import { readStackerDbPost } from '../stacks-codec/signer-message/stackerdb-chunks.js';
import { LiveMatching } from './live-matching.js';

/** What the signer messages read so far came to, since the process started. */
export type SignerMessageCounts = {
  /** Messages decoded. */
  decoded: number;
  /** Chunks that did not decode (or posts that were not StackerDB posts). */
  malformed: number;
  /** Well-formed messages of kinds 1.x never delivered (state machine updates, pre-commits). */
  undelivered: number;
  /** Messages received before any block, when there is no tip to report them at. */
  beforeFirstBlock: number;
  /** Posts not read because no live predicate takes signer messages. */
  unread: number;
  /** Payloads queued. */
  payloads: number;
};

/**
 * Signer messages in: each `/stackerdb_chunks` post of the node is decoded, its messages matched
 * against the live `signer_message` predicates, and each predicate with a match is queued one 1.x
 * payload holding the post's messages it takes, as 1.x batched them. Runs in the order of the raw
 * event log, so `received_at_block` is the tip the chain had when the post came; a payload's id is
 * derived from the post, so processing a post again after a crash queues nothing twice.
 */
@injectable()
export class SignerMessageDelivery {
  private readonly tally: SignerMessageCounts = {
    decoded: 0,
    malformed: 0,
    undelivered: 0,
    beforeFirstBlock: 0,
    unread: 0,
    payloads: 0,
  };

  constructor(
    @inject(BLOCK_STORE) private readonly blocks: BlockStore,
    @inject(DELIVERY_QUEUE) private readonly deliveries: DeliveryQueue,
    @inject(LiveMatching) private readonly live: LiveMatching,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** The counts so far. */
  counts(): SignerMessageCounts {
    return { ...this.tally };
  }

  /** Decode one `/stackerdb_chunks` entry of the raw event log and queue its payloads; resolves once they are stored. */
  async received(entry: RawEvent): Promise<void> {
    // Recovering each writer's key is the costly part: without a predicate to take them, don't.
    const wanted = await this.live.withLiveV1Hooks(async (hooks) => signerPredicates(hooks).length > 0);
    if (!wanted) {
      this.tally.unread++;
      return;
    }
    const { chunks, skipped } = readStackerDbPost(parse(entry.body));
    for (const skip of skipped) {
      if (skip.undelivered) this.tally.undelivered++;
      else {
        this.tally.malformed++;
        this.logger.warn('a StackerDB chunk does not decode as a signer message; skipped', {
          event_id: entry.id,
          slot_id: skip.slot_id,
          reason: skip.reason,
        });
      }
    }
    this.tally.decoded += chunks.length;
    if (chunks.length === 0) return;
    const tip = await this.blocks.tip();
    if (!tip) {
      // 1.x refused these too: a message is reported at a block, and there is none yet.
      this.tally.beforeFirstBlock += chunks.length;
      return;
    }
    const events = signerMessageEvents(chunks, entry.received_at, { index: tip.height, hash: tip.hash });
    await this.live.withLiveV1Hooks(async (hooks) => {
      const payloads = this.payloadsFor(hooks, events, entry.id);
      if (payloads.length === 0) return;
      await this.deliveries.enqueue(payloads);
      this.tally.payloads += payloads.length;
    });
  }

  private payloadsFor(
    hooks: Iterable<StoredHook>,
    events: SignerMessageEvent[],
    eventId: number,
  ): OutgoingPayload[] {
    const payloads: OutgoingPayload[] = [];
    const now = this.clock.now();
    for (const { hook, predicate, test } of signerPredicates(hooks)) {
      const taken = events.filter(test);
      if (taken.length === 0) continue;
      payloads.push({
        id: payloadId(hook.uuid, eventId),
        hook_uuid: hook.uuid,
        owner: hook.owner,
        url: hook.definition.action.url,
        kind: 'live',
        apply: [],
        rollback: [],
        body: queuedV1Body(shapeSignerMessagePayload({ uuid: hook.uuid, predicate, events: taken })),
        created_at: now,
      });
    }
    return payloads;
  }
}

type SignerPredicate = {
  hook: StoredHook;
  predicate: NetworkPredicate;
  test: (event: SignerMessageEvent) => boolean;
};

/** The live hooks whose 1.x predicate has the `signer_message` scope, each with its test. */
function signerPredicates(hooks: Iterable<StoredHook>): SignerPredicate[] {
  const found: SignerPredicate[] = [];
  for (const hook of hooks) {
    const predicate = hook.definition.chainhook_v1?.networks[hook.definition.network];
    const test = predicate && signerMessageTest(predicate.if_this);
    if (test) found.push({ hook, predicate, test });
  }
  return found;
}

// The observer stored only bodies that parse; anything else reads as no post.
function parse(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return null;
  }
}

/** The `webhook-id` of a signer-message payload: the same whenever the same post is processed again. */
function payloadId(hookUuid: string, eventId: number): string {
  const digest = createHash('sha256').update(hookUuid).update(`|signer-messages|${eventId}`).digest('hex');
  return `msg_${digest.slice(0, 32)}`;
}
