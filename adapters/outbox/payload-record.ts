import { payloadTextParts } from '../../core/payload/index.js';
import type { OutgoingPayload } from '../../core/ports/delivery-queue.js';
import { MetaText } from './meta-text.js';
import { metaOf, type PayloadMeta } from './outbox-entry.js';
import { HEADER_BYTES, MAX_BYTES_PER_CHAR, type Locator, type PayloadSegments } from './payload-segments.js';

/**
 * Where each shared block's text was placed, by the shaped block object the payloads share. Only a
 * place in the segment appended to now is used: a payload's record names its blocks by offset in
 * its own segment, so a segment is never kept for another's sake.
 */
export type BlockPlaces = WeakMap<object, Locator>;

/**
 * A payload's record with its body cut around its shared blocks (`payloadTextParts`): a line of JSON
 * (the metadata, the place in the same segment of each block's text, a record of its own written
 * once per segment for every payload that shares the block, and the length of each of the body's
 * own texts), then those texts as they are, one after the other. They are JSON already: written
 * raw, they are neither escaped nor unescaped again. The body is put back together when it is read.
 * A record without the line holds its body whole (`body`), or, as written before the line, its
 * texts as JSON strings (`body_texts`).
 */
type SharedBlockHead = PayloadMeta & { body_blocks: [number, number][]; body_lengths: number[] };
type QuotedTextsRecord = PayloadMeta & { body_texts: string[]; body_blocks: [number, number][] };

/** A bound for the text of one block reference, `[offset,length],`. */
const REFERENCE_CHARS = 24;
const LENGTHS_KEY = ',"body_lengths":';
const BLOCKS_KEY = ',"body_blocks":';

/**
 * Place the record of a payload (`meta` and `body`) in `segments`, and before it the text of each
 * shared block not yet in the segment (noted in `places`); returns the record's locator and the
 * body's length (in characters). All of them go in one segment: the same write, the same fsync, and
 * the journal names the record only after that fsync, so a crash never leaves a named record
 * without the blocks it names.
 */
export function placePayloadRecord(
  segments: PayloadSegments,
  places: BlockPlaces,
  meta: PayloadMeta,
  body: OutgoingPayload['body'],
  metaText = new MetaText(),
): { loc: Locator; bodyLength: number } {
  const parts = payloadTextParts(body);
  const own = metaText.open(meta);
  if (parts.blocks.length === 0) {
    const text = parts.texts[0];
    return { loc: segments.append([own, ',"body":', text, '}']), bodyLength: text.length };
  }
  let lengths = '[';
  for (let i = 0; i < parts.texts.length; i++) lengths += `${i > 0 ? ',' : ''}${parts.texts[i].length}`;
  lengths += ']';
  // The line's pieces are written one after the other, never joined: a joined head would be
  // flattened into a string of its own to be written.
  const headLength = own.length + LENGTHS_KEY.length + lengths.length + BLOCKS_KEY.length;
  let bodyLength = 0;
  for (const text of parts.texts) bodyLength += text.length;
  let bound =
    HEADER_BYTES + MAX_BYTES_PER_CHAR * (headLength + REFERENCE_CHARS * parts.blocks.length + bodyLength);
  for (const { text } of parts.blocks) {
    bound += HEADER_BYTES + MAX_BYTES_PER_CHAR * text.length;
    bodyLength += text.length;
  }
  segments.makeRoom(bound);
  const segment = segments.activeSegment;
  let references = '[';
  for (let i = 0; i < parts.blocks.length; i++) {
    const { block, text } = parts.blocks[i];
    let place = places.get(block);
    if (place?.seg !== segment) {
      place = segments.append(text, false);
      places.set(block, place);
    }
    references += `${i > 0 ? ',' : ''}[${place.off},${place.len}]`;
  }
  references += ']';
  // JSON text holds no raw line break, so the first one ends the line.
  const record = [own, LENGTHS_KEY, lengths, BLOCKS_KEY, references, '}\n', ...parts.texts];
  return { loc: segments.append(record, false), bodyLength };
}

/** The whole payload from its record, its body put back together from its blocks' texts. */
export function readPayloadRecord(segments: PayloadSegments, loc: Locator): OutgoingPayload {
  const { fields, bodyText } = readRecordText(segments, loc);
  return { ...fields, body: JSON.parse(bodyText) as OutgoingPayload['body'] };
}

/** The payload's body from its record as the JSON text it is sent as, put together and never parsed. */
export function readPayloadBodyText(segments: PayloadSegments, loc: Locator): string {
  return readRecordText(segments, loc).bodyText;
}

// The record's metadata fields and its body's whole text, in each of the layouts a record has had.
function readRecordText(segments: PayloadSegments, loc: Locator): { fields: PayloadMeta; bodyText: string } {
  const text = segments.read(loc).toString('utf8');
  const cut = text.indexOf('\n');
  if (cut < 0) {
    const record = JSON.parse(text) as OutgoingPayload | QuotedTextsRecord;
    if (!('body_texts' in record)) {
      const { body, ...fields } = record;
      // `serializePayload` is `JSON.stringify` of the body, which a whole body was written with.
      return { fields, bodyText: JSON.stringify(body) };
    }
    const { body_texts: texts, body_blocks: references, ...fields } = record;
    return { fields, bodyText: joinBody(segments, loc.seg, texts, references) };
  }
  const {
    body_lengths: lengths,
    body_blocks: references,
    ...fields
  } = JSON.parse(text.slice(0, cut)) as SharedBlockHead;
  let at = cut + 1;
  const texts = lengths.map((length) => text.slice(at, (at += length)));
  return { fields, bodyText: joinBody(segments, loc.seg, texts, references) };
}

/** The payload's metadata from its record, without reading its body's blocks. */
export function readPayloadMeta(segments: PayloadSegments, loc: Locator): PayloadMeta {
  const text = segments.read(loc).toString('utf8');
  const cut = text.indexOf('\n');
  return metaOf(JSON.parse(cut < 0 ? text : text.slice(0, cut)) as PayloadMeta);
}

// The body's text from its own texts and, between them, the texts of its blocks in segment `seg`.
function joinBody(
  segments: PayloadSegments,
  seg: number,
  texts: readonly string[],
  references: readonly [number, number][],
): string {
  let text = texts[0];
  references.forEach(([off, len], i) => {
    text += segments.read({ seg, off, len }).toString('utf8') + texts[i + 1];
  });
  return text;
}
