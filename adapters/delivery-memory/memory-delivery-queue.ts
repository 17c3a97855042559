import type { DeliveryQueue, OutgoingPayload } from '../../core/ports/delivery-queue.js';

/**
 * A delivery queue that keeps payloads in memory and sends nothing: for tests and for embedding
 * callers who take payloads themselves (`take()`). Not durable: a restart forgets everything.
 */
export class MemoryDeliveryQueue implements DeliveryQueue {
  private readonly queued: OutgoingPayload[] = [];
  private readonly ids = new Set<string>();
  /** hook uuid → block hash → transaction indexes sent in a live apply. */
  private readonly applied = new Map<string, Map<string, number[]>>();

  /** Record payloads in order; an id seen before is skipped. */
  async enqueue(payloads: OutgoingPayload[]): Promise<void> {
    for (const payload of payloads) {
      if (this.ids.has(payload.id)) continue;
      this.ids.add(payload.id);
      this.queued.push(payload);
      if (payload.kind === 'live') this.trackApplies(payload);
    }
  }

  /** Hooks and transactions sent in live applies of these blocks. */
  async sentApplies(blockHashes: readonly string[]): Promise<Map<string, Map<string, number[]>>> {
    const wanted = new Set(blockHashes);
    const result = new Map<string, Map<string, number[]>>();
    for (const [hook, blocks] of this.applied) {
      for (const [hash, txIndexes] of blocks) {
        if (!wanted.has(hash)) continue;
        if (!result.has(hook)) result.set(hook, new Map());
        result.get(hook)!.set(hash, txIndexes);
      }
    }
    return result;
  }

  /** Drop a deleted hook's payloads and its record of sent blocks. */
  async dropHook(hookUuid: string): Promise<void> {
    for (let i = this.queued.length - 1; i >= 0; i--)
      if (this.queued[i].hook_uuid === hookUuid) this.queued.splice(i, 1);
    this.applied.delete(hookUuid);
  }

  /** Every payload recorded so far, oldest first (still kept). */
  all(): readonly OutgoingPayload[] {
    return this.queued;
  }

  /** Take and remove every payload recorded so far. */
  take(): OutgoingPayload[] {
    return this.queued.splice(0, this.queued.length);
  }

  private trackApplies(payload: OutgoingPayload): void {
    const blocks = this.applied.get(payload.hook_uuid) ?? new Map<string, number[]>();
    for (const ref of payload.rollback) blocks.delete(ref.hash);
    for (const ref of payload.apply) blocks.set(ref.hash, ref.tx_indexes);
    this.applied.set(payload.hook_uuid, blocks);
  }
}
