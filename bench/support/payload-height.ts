// The block a webhook body applies, as the benches' receivers note it.

type Applied = { apply?: { block_identifier?: { index?: number } }[] };

/** The height of the first block a webhook body (2.0's or 1.x's) applies; -1 when it is not a webhook payload. */
export function heightOf(body: Buffer): number {
  try {
    // 2.0 nests the blocks in `event`; 1.x has them at the top.
    const payload = JSON.parse(body.toString('utf8')) as Applied & { event?: Applied };
    return (payload.event ?? payload).apply?.[0]?.block_identifier?.index ?? -1;
  } catch {
    return -1;
  }
}
