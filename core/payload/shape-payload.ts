import type { NormalizedBlock } from '../chain/block.js';
import type { HookOptions, Network } from '../hooks/definition.js';
import { blockShapes } from './block-shapes.js';
import { payloadView, VIEW, type PayloadView } from './payload-view.js';
import type { PayloadBlock, WebhookPayload } from './webhook-payload.js';

/** A block a hook matched: the block and the indexes (ascending) of the transactions it matched. */
export type BlockMatch = { block: NormalizedBlock; txIndexes: readonly number[] };

/** What one webhook body is made from: the hook, its network, and the matched blocks of one chain update. */
export type ShapeInput = {
  hook: { uuid: string; name: string; options?: HookOptions | null };
  network: Network;
  /** Blocks joining the canonical chain, oldest first. */
  apply: readonly BlockMatch[];
  /** Blocks leaving the canonical chain, newest first. */
  rollback: readonly BlockMatch[];
};

/**
 * The webhook body for one hook and one chain update: each block
 * with only its matched transactions, each transaction with all of its operations, projected
 * through the hook's payload options; `apply` blocks canonical, `rollback` blocks not. Pure, and
 * the input is never mutated; the result shares read-only parts with the block and with other
 * hooks' payloads (serialize it, do not edit it).
 */
export function shapePayload(input: ShapeInput): WebhookPayload {
  const view = payloadView(input.hook.options);
  return {
    chainhook: { uuid: input.hook.uuid, name: input.hook.name },
    event: {
      chain: 'stacks',
      network: input.network,
      apply: shapeBlocks(input.apply, view | VIEW.canonical),
      rollback: shapeBlocks(input.rollback, view),
    },
  };
}

function shapeBlocks(matches: readonly BlockMatch[], view: PayloadView): PayloadBlock[] {
  // Sized up front: an array grown by push from empty reserves room for 17 (most payloads have one block).
  const blocks: PayloadBlock[] = new Array(matches.length);
  for (let i = 0; i < matches.length; i++) {
    const { block, txIndexes } = matches[i];
    blocks[i] = blockShapes(block).payloadBlock(txIndexes, view);
  }
  return blocks;
}
