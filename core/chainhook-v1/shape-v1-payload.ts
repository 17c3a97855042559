import type { Network } from '../hooks/definition.js';
import type { BlockMatch } from '../payload/shape-payload.js';
import type { WebhookPayload } from '../payload/webhook-payload.js';
import type { NetworkPredicate } from './predicate.js';
import { v1BlockShapes } from './v1-block-shapes.js';
import type { ChainhookV1Payload, V1Block } from './v1-payload.js';

/** What one 1.x body is made from: the predicate, the network, and the matched blocks of one chain update. */
export type V1ShapeInput = {
  uuid: string;
  predicate: NetworkPredicate;
  network: Network;
  /** Blocks joining the canonical chain, oldest first. */
  apply: readonly BlockMatch[];
  /** Blocks leaving the canonical chain, newest first. */
  rollback: readonly BlockMatch[];
  /** Whether the blocks come from the live stream (`is_streaming_blocks`); false for a scan of history. */
  streaming?: boolean;
};

/**
 * The body 1.x posted for one chain update, built from the normalized blocks every payload is built
 * from: each block with its matched transactions, each with its committed events typed as 1.x typed
 * them. Pure, and the input is never mutated; the blocks are shared with other predicates' payloads
 * that matched them alike (`V1BlockShapes`), so the result is read-only (serialize it, do not edit it).
 */
export function shapeV1Payload(input: V1ShapeInput): ChainhookV1Payload {
  return {
    apply: v1Blocks(input.apply, input),
    rollback: v1Blocks(input.rollback, input),
    chainhook: {
      uuid: input.uuid,
      predicate: input.predicate.if_this,
      is_streaming_blocks: input.streaming ?? true,
    },
    events: [],
  };
}

function v1Blocks(matches: readonly BlockMatch[], input: V1ShapeInput): V1Block[] {
  const blocks: V1Block[] = new Array(matches.length);
  for (let i = 0; i < matches.length; i++) {
    const { block, txIndexes } = matches[i];
    blocks[i] = v1BlockShapes(block).v1Block(txIndexes, input.predicate, input.network);
  }
  return blocks;
}

/**
 * A 1.x body as the outbox carries it. The outbox, the delivery log and the sender only store and
 * serialize a body (`serializePayload` and `payloadTextParts` know 1.x's layout as well as 2.0's),
 * so a 1.x body goes through them unchanged; typing the queue's body as a union would make every
 * reader of 2.0 bodies narrow it, for a field only the live step writes.
 */
export function queuedV1Body(body: ChainhookV1Payload): WebhookPayload {
  return body as unknown as WebhookPayload;
}
