import type pg from 'pg';
import { payloadTextParts } from '../../core/payload/index.js';
import type { OutgoingPayload } from '../../core/ports/delivery-queue.js';

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

/**
 * A body's fields in a payload row's JSON (see `insertPayloads`), its blocks named by the ids
 * `textIds` gives their places. A whole body goes as its own JSON, unescaped; a cut one as its
 * pieces, with the enqueue's first text id as the batch the prune looks its texts up by.
 */
export function bodyFieldsJson(body: CutBody, textIds: readonly number[]): string {
  if ('whole' in body) return `"body":${body.whole}`;
  return (
    `"head":${JSON.stringify(body.head)},"parts":${JSON.stringify(body.parts)},` +
    `"blocks":[${body.blocks.map((place) => textIds[place]).join(',')}],"batch":${textIds[0]}`
  );
}

/**
 * The enqueue's block texts as rows for `json_to_recordset`, each under its id from `textIds`, with
 * the enqueue's first text id as their batch. The `text` fields are the blocks' own JSON: a `json`
 * value keeps its text as written, so each is stored exactly as serialized, and never escaped.
 */
export function blockTextsJson(texts: readonly string[], textIds: readonly number[]): string {
  let rows = '[';
  for (let i = 0; i < texts.length; i++)
    rows += `${i > 0 ? ',' : ''}{"id":${textIds[i]},"batch":${textIds[0]},"text":${texts[i]}}`;
  return `${rows}]`;
}

/** Forget the block texts no payload refers to any more (their payloads forgotten, or their bodies let go). */
export async function forgetUnreferencedTexts(pool: pg.Pool): Promise<void> {
  await pool.query(
    `DELETE FROM outbox_block_texts t
     WHERE NOT EXISTS (SELECT 1 FROM outbox_payloads p WHERE p.block_batch = t.batch)`,
  );
}
