import type { NormalizedBlock } from '../chain/block.js';
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

/** The payload that sends one block's matching transactions to a hook: `{apply: [block], rollback: []}`. */
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
  return {
    id: args.id,
    hook_uuid: hook.uuid,
    owner: hook.owner,
    url: hook.definition.action.url,
    kind: args.kind,
    apply: [{ ...block.block_identifier, tx_indexes: txIndexes }],
    rollback: [],
    body: shapePayload({
      hook: { uuid: hook.uuid, name: hook.definition.name, options: hook.definition.options },
      network: args.network,
      apply: [{ block, txIndexes }],
      rollback: [],
    }),
    created_at: args.createdAt,
  };
}
