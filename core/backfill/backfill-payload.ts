/** The header that tells a receiver a payload comes from a backfill, and from which one. */
export const BACKFILL_HEADER = 'stackhooks-backfill-id';

/**
 * How far below the archive's tip (in heights) a backfill's block is remembered for rollbacks, as a
 * live block is: a reorg that later takes it away rolls it back. The same depth as the blocks each
 * hook keeps for its live rollbacks; a block deeper than that when sent is taken as final.
 */
export const REMEMBERED_DEPTH = 10_000;

const PAYLOAD_ID = /^msg_([0-9a-f]{16})([0-9a-f]{16})$/;

/** A new backfill id: `bf_` and 16 hex digits (from the id source). */
export function backfillId(hex16: string): string {
  return `bf_${hex16}`;
}

/**
 * The `webhook-id` of a backfill's payload for the block at `height`: the backfill's 16 hex digits
 * then the height's, so a scan that runs again after a crash queues the same ids (the outbox skips
 * them) and the backfill can be read back from the id alone for the header.
 */
export function backfillPayloadId(backfill: string, height: number): string {
  return `msg_${backfill.slice(3)}${height.toString(16).padStart(16, '0')}`;
}

/** The backfill a backfill payload's id names, or undefined for an id of another shape. */
export function backfillOfPayload(payloadId: string): string | undefined {
  const parts = PAYLOAD_ID.exec(payloadId);
  return parts ? `bf_${parts[1]}` : undefined;
}
