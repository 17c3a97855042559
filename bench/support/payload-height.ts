// The block a webhook body applies, as the benches' receivers note it.

/** The height of the first block a webhook body applies; -1 when it is not a webhook payload. */
export function heightOf(body: Buffer): number {
  try {
    const payload = JSON.parse(body.toString('utf8')) as {
      event?: { apply?: { block_identifier?: { index?: number } }[] };
    };
    return payload.event?.apply?.[0]?.block_identifier?.index ?? -1;
  } catch {
    return -1;
  }
}
