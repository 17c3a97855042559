import { backfillOfPayload } from '../backfill/backfill-payload.js';
import type { BackfillStore } from '../ports/backfill-store.js';
import type { BlockStore } from '../ports/block-store.js';
import type { PayloadMeta } from '../ports/delivery-queue.js';

/**
 * The check delivery asks before sending a backfill payload: one of a cancelled backfill is dropped
 * (what was queued is dropped, what was sent stays sent), and so is one whose block left the
 * canonical chain after it was queued (a backfill never delivers an orphaned block).
 */
export function backfillSendCheck(backfills: BackfillStore, blocks: BlockStore) {
  return async function checkBackfillPayload(payload: PayloadMeta): Promise<string | undefined> {
    if (payload.kind !== 'backfill') return undefined;
    const id = backfillOfPayload(payload.id);
    const backfill = id === undefined ? undefined : await backfills.get(payload.hook_uuid, id);
    if (backfill?.state === 'cancelled') return `backfill ${backfill.id} was cancelled before it was sent`;
    const block = payload.apply[0];
    if (block && !(await blocks.isCanonical(block.hash))) {
      return `block ${block.hash} left the canonical chain before it was sent`;
    }
    return undefined;
  };
}
