import type { NormalizedBlock } from '../chain/block.js';
import { matchedIndexes, scopeMatcher } from '../chainhook-v1/scope-matcher.js';
import { queuedV1Body, shapeV1Payload } from '../chainhook-v1/shape-v1-payload.js';
import type { Network } from '../hooks/definition.js';
import type { StoredHook } from '../hooks/record.js';
import { matchesAnyFilter } from '../matching/index.js';
import { shapePayload } from '../payload/index.js';
import type { DeliveryKind } from '../delivery/delivery-record.js';
import type { OutgoingPayload } from '../ports/delivery-queue.js';

/** The transactions of `block` that match any of the hook's filters, as indexes into the block. */
export function matchedTransactions(hook: StoredHook, block: NormalizedBlock): number[] {
  const filters = hook.definition.filters.events;
  const txIndexes: number[] = [];
  block.transactions.forEach((tx, index) => {
    if (matchesAnyFilter(filters, tx)) txIndexes.push(index);
  });
  return txIndexes;
}

/**
 * How a scan matches `hook` against a block: the indexes of its matching transactions, or undefined
 * for no match. A Chainhook 1.x predicate matches by its scope, and may match a block with no
 * transaction of its own (`block_height`), which is still one payload.
 */
export function blockMatcher(hook: StoredHook): (block: NormalizedBlock) => number[] | undefined {
  const v1 = hook.definition.chainhook_v1?.networks[hook.definition.network];
  if (v1) {
    const matcher = scopeMatcher(v1.if_this);
    return (block) => {
      const hit = matcher(block);
      return hit ? matchedIndexes(block, hit) : undefined;
    };
  }
  return (block) => {
    const txIndexes = matchedTransactions(hook, block);
    return txIndexes.length > 0 ? txIndexes : undefined;
  };
}

/**
 * The payload that sends one block's matching transactions to a hook: `{apply: [block], rollback: []}`,
 * in 1.x's shape for a Chainhook 1.x predicate (`is_streaming_blocks` true only for a live one).
 */
export function singleBlockPayload(args: {
  hook: StoredHook;
  block: NormalizedBlock;
  txIndexes: number[];
  id: string;
  kind: DeliveryKind;
  network: Network;
  createdAt: number;
}): OutgoingPayload {
  const { hook, block, txIndexes } = args;
  const v1 = hook.definition.chainhook_v1?.networks[hook.definition.network];
  const apply = [{ block, txIndexes }];
  return {
    id: args.id,
    hook_uuid: hook.uuid,
    owner: hook.owner,
    url: hook.definition.action.url,
    kind: args.kind,
    apply: [{ ...block.block_identifier, tx_indexes: txIndexes }],
    rollback: [],
    body: v1
      ? queuedV1Body(
          shapeV1Payload({
            uuid: hook.uuid,
            predicate: v1,
            network: args.network,
            apply,
            rollback: [],
            streaming: args.kind === 'live',
          }),
        )
      : shapePayload({
          hook: { uuid: hook.uuid, name: hook.definition.name, options: hook.definition.options },
          network: args.network,
          apply,
          rollback: [],
        }),
    created_at: args.createdAt,
  };
}
