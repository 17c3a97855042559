import type { BlockRef } from '../../core/delivery/delivery-record.js';
import type { PayloadMeta } from './outbox-entry.js';
import type { PlacedPayload } from './outbox-state.js';

/**
 * The payloads one enqueue added, as one journal record with a column per field. A block's
 * thousand payloads are one record (one encode, one checksum) instead of a thousand, and the blocks
 * they name are written once. The record is replayed whole or not at all, like the commit it was.
 */
export type EnqueuedBatch = {
  t: 'enqueued_batch';
  id: string[];
  hook: string[];
  owner: string[];
  url: string[];
  kind: PayloadMeta['kind'][];
  created_at: number[];
  /** The blocks the payloads name, each once, as [index, hash]. */
  blocks: [number, string][];
  /** Each payload's applied blocks, as [place in `blocks`, tx indexes]. */
  apply: [number, number[]][][];
  /** Each payload's rolled-back blocks, as places in `blocks`. */
  rollback: number[][];
  /** Each payload's record, as segment, offset and length, one after the other. */
  loc: number[];
  /** The places of the payloads whose applies are `remembered` (absent when none is, as before it existed). */
  remembered?: number[];
};

/** The journal record of the payloads an enqueue added, in order. */
export function batchOf(added: readonly PlacedPayload[]): EnqueuedBatch {
  const batch: EnqueuedBatch = {
    t: 'enqueued_batch',
    id: [],
    hook: [],
    owner: [],
    url: [],
    kind: [],
    created_at: [],
    blocks: [],
    apply: [],
    rollback: [],
    loc: [],
  };
  const places = new Map<string, number>();
  // A block's payloads name the same block one after the other: no key is made for a repeat.
  let last: BlockRef | undefined;
  let lastPlace = -1;
  const placeOf = (ref: BlockRef): number => {
    if (ref.index === last?.index && ref.hash === last.hash) return lastPlace;
    const key = `${ref.index}:${ref.hash}`;
    let place = places.get(key);
    if (place === undefined) {
      place = batch.blocks.push([ref.index, ref.hash]) - 1;
      places.set(key, place);
    }
    last = ref;
    lastPlace = place;
    return place;
  };
  for (const { meta, loc } of added) {
    batch.id.push(meta.id);
    batch.hook.push(meta.hook_uuid);
    batch.owner.push(meta.owner);
    batch.url.push(meta.url);
    batch.kind.push(meta.kind);
    batch.created_at.push(meta.created_at);
    batch.apply.push(meta.apply.map((ref): [number, number[]] => [placeOf(ref), ref.tx_indexes]));
    batch.rollback.push(meta.rollback.map(placeOf));
    batch.loc.push(loc.seg, loc.off, loc.len);
    if (meta.remembered === true) (batch.remembered ??= []).push(batch.id.length - 1);
  }
  return batch;
}

/** The payloads of a batch record, in the order they were added. */
export function placedOf(batch: EnqueuedBatch): PlacedPayload[] {
  const blocks = batch.blocks.map(([index, hash]): BlockRef => ({ index, hash }));
  const remembered = new Set(batch.remembered);
  return batch.id.map((id, i) => ({
    meta: {
      id,
      hook_uuid: batch.hook[i],
      owner: batch.owner[i],
      url: batch.url[i],
      kind: batch.kind[i],
      apply: batch.apply[i].map(([place, tx_indexes]) => ({ ...blocks[place], tx_indexes })),
      rollback: batch.rollback[i].map((place) => ({ ...blocks[place] })),
      created_at: batch.created_at[i],
      ...(remembered.has(i) && { remembered: true as const }),
    },
    loc: { seg: batch.loc[3 * i], off: batch.loc[3 * i + 1], len: batch.loc[3 * i + 2] },
  }));
}
