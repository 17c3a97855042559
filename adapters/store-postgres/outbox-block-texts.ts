import type pg from 'pg';
import { payloadTextParts } from '../../core/payload/index.js';
import type { OutgoingPayload } from '../../core/ports/delivery-queue.js';
import { jsonTextsLiteral } from './array-literal.js';

/**
 * A payload's body as its row keeps it: whole, or its own text cut around the blocks it shares with
 * other payloads of the enqueue (`head`, then block `blocks[i]` and `parts[i]` in turn), the blocks
 * named by their place in `CutBodies.texts`.
 */
type CutBody = { whole: string } | { head: string; parts: string[]; blocks: number[] };

/** The bodies of an enqueue's payloads, and the block texts they share, each once. */
export type CutBodies = { bodies: CutBody[]; texts: string[] };

/**
 * Cut each body around its shaped blocks (`payloadTextParts`): a block object that several payloads
 * carry (every hook that matched it alike) is one text for all of them.
 */
export function cutBodies(payloads: readonly OutgoingPayload[]): CutBodies {
  const texts: string[] = [];
  const placeOf = new Map<object, number>();
  const bodies = payloads.map((payload): CutBody => {
    const { texts: own, blocks } = payloadTextParts(payload.body);
    if (blocks.length === 0) return { whole: own.join('') };
    const places = blocks.map(({ block, text }) => {
      let place = placeOf.get(block);
      if (place === undefined) {
        place = texts.push(text) - 1;
        placeOf.set(block, place);
      }
      return place;
    });
    return { head: own[0], parts: own.slice(1), blocks: places };
  });
  return { bodies, texts };
}

/** A body as the columns of its payload row: `body` (whole, or the head of a cut one), and a cut one's pieces. */
export type BodyColumns = {
  body: string;
  /** An array literal of the pieces after each block, for a `text[]` column; null for a whole body. */
  parts: string | null;
  /** An array literal of the blocks' text ids, for a `bigint[]` column; null for a whole body. */
  blocks: string | null;
  /** The enqueue's first text id, which the prune looks a payload's texts up by; null for a whole body. */
  batch: number | null;
};

/** A body's columns (`BodyColumns`), its blocks named by the ids `textIds` gives their places. */
export function bodyColumns(body: CutBody, textIds: readonly number[]): BodyColumns {
  if ('whole' in body) return { body: body.whole, parts: null, blocks: null, batch: null };
  return {
    body: body.head,
    parts: jsonTextsLiteral(body.parts),
    blocks: `{${body.blocks.map((place) => textIds[place]).join(',')}}`,
    batch: textIds[0],
  };
}

/** Forget the block texts no payload refers to any more (their payloads forgotten, or their bodies let go). */
export async function forgetUnreferencedTexts(pool: pg.Pool): Promise<void> {
  await pool.query(
    `DELETE FROM outbox_block_texts t
     WHERE NOT EXISTS (SELECT 1 FROM outbox_payloads p WHERE p.block_batch = t.batch)`,
  );
}
