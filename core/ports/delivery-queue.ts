import type { WebhookPayload } from '../payload/webhook-payload.js';

/** Live payloads come from the chain; evaluation payloads from `POST /me/{uuid}/evaluate`. */
export type DeliveryKind = 'live' | 'evaluation';

/** A block a payload carries, for the delivery log. */
export type BlockRef = { index: number; hash: string };

/** A block a payload applies, with the transactions (indexes into the block) the hook was sent. */
export type AppliedBlockRef = BlockRef & { tx_indexes: number[] };

/** One webhook body on its way to one hook's URL. */
export type OutgoingPayload = {
  /** The `webhook-id`: the same on every retry, and derived from the chain event so a re-run after a crash repeats it. */
  id: string;
  hook_uuid: string;
  owner: string;
  url: string;
  kind: DeliveryKind;
  apply: AppliedBlockRef[];
  rollback: BlockRef[];
  body: WebhookPayload;
  /** Milliseconds since the unix epoch. */
  created_at: number;
};

/**
 * Where payloads wait for delivery. `enqueue` resolves only once they would survive a crash (the
 * chain event counts as processed right after); an id already queued is not queued twice.
 */
export interface DeliveryQueue {
  /** Store payloads durably, in order; per hook they go out in this order. */
  enqueue(payloads: OutgoingPayload[]): Promise<void>;
  /**
   * For blocks leaving the canonical chain: which hooks were sent each of them in a live apply
   * (that no later rollback took back), and with which transactions (indexes into the block).
   * Result: hook uuid → block hash → transaction indexes.
   */
  sentApplies(blockHashes: readonly string[]): Promise<Map<string, Map<string, number[]>>>;
  /** Forget a deleted hook: drop its queued payloads; nothing more is delivered for it. */
  dropHook(hookUuid: string): Promise<void>;
}

export const DELIVERY_QUEUE = Symbol.for('stackhooks.DeliveryQueue');
