import type { ChainhookV1Payload } from '../chainhook-v1/v1-payload.js';
import type { PayloadBlock, WebhookPayload } from './webhook-payload.js';

/**
 * The JSON text of each shaped block, made once: hooks that match a block alike share its shaped
 * object (`BlockShapes`), so its text is shared too, and a block's payloads cost one
 * serialization of the block plus a few bytes each. Weak, so a text goes with its block.
 */
const blockTexts = new WeakMap<PayloadBlock, string>();

const PAYLOAD_KEYS = ['chainhook', 'event'];
const EVENT_KEYS = ['chain', 'network', 'apply', 'rollback'];

/**
 * The JSON text of a webhook body: exactly `JSON.stringify(payload)`, with the text of each block
 * reused from earlier payloads that shared the block object. Shaped payloads are read-only, which
 * is what makes a block's text safe to keep; a body of any other layout is serialized whole.
 */
export function serializePayload(payload: WebhookPayload | ChainhookV1Payload): string {
  if (!('event' in payload)) return JSON.stringify(payload);
  const { event } = payload;
  if (!hasKeysInOrder(payload, PAYLOAD_KEYS) || !hasKeysInOrder(event, EVENT_KEYS)) {
    return JSON.stringify(payload);
  }
  return (
    `{"chainhook":${JSON.stringify(payload.chainhook)},"event":{"chain":${JSON.stringify(event.chain)},` +
    `"network":${JSON.stringify(event.network)},"apply":${blocksText(event.apply)},` +
    `"rollback":${blocksText(event.rollback)}}}`
  );
}

/**
 * A body's JSON text cut around its shared blocks: `texts[0] + blocks[0].text + texts[1] + … +
 * texts[n]` is `serializePayload(payload)`. Each block is the shaped object payloads that share it
 * hold, with its text made once, so a store can keep that text once for all of them. A body of any
 * other layout (or one without blocks) is one text and no blocks.
 */
export type PayloadTextParts = { texts: string[]; blocks: { block: object; text: string }[] };

/** The JSON text of a webhook body as its own parts and its shared blocks (see `PayloadTextParts`). */
export function payloadTextParts(payload: WebhookPayload | ChainhookV1Payload): PayloadTextParts {
  if (!('event' in payload)) return { texts: [JSON.stringify(payload)], blocks: [] };
  const { event } = payload;
  if (
    !hasKeysInOrder(payload, PAYLOAD_KEYS) ||
    !hasKeysInOrder(event, EVENT_KEYS) ||
    !Array.isArray(event.apply) ||
    !Array.isArray(event.rollback)
  ) {
    return { texts: [JSON.stringify(payload)], blocks: [] };
  }
  const parts: PayloadTextParts = { texts: [], blocks: [] };
  let text =
    `{"chainhook":${JSON.stringify(payload.chainhook)},"event":{"chain":${JSON.stringify(event.chain)},` +
    `"network":${JSON.stringify(event.network)},"apply":[`;
  const addBlocks = (blocks: readonly PayloadBlock[]) => {
    for (let i = 0; i < blocks.length; i++) {
      if (i > 0) text += ',';
      const block = blocks[i];
      // Only objects can be shared; anything else (a malformed body) stays in the body's own text.
      if (typeof block !== 'object' || block === null) {
        text += JSON.stringify(block) ?? 'null';
        continue;
      }
      parts.texts.push(text);
      parts.blocks.push({ block, text: blockText(block) });
      text = '';
    }
  };
  addBlocks(event.apply);
  text += '],"rollback":[';
  addBlocks(event.rollback);
  parts.texts.push(`${text}]}}`);
  return parts;
}

function blocksText(blocks: readonly PayloadBlock[]): string {
  if (!Array.isArray(blocks)) return JSON.stringify(blocks);
  let text = '[';
  for (let i = 0; i < blocks.length; i++) {
    if (i > 0) text += ',';
    text += blockText(blocks[i]);
  }
  return `${text}]`;
}

function blockText(block: PayloadBlock): string {
  // Only objects can key a WeakMap; anything else (a malformed body) is serialized as it is.
  if (typeof block !== 'object' || block === null) return JSON.stringify(block) ?? 'null';
  let text = blockTexts.get(block);
  if (text === undefined) {
    text = JSON.stringify(block);
    blockTexts.set(block, text);
  }
  return text;
}

// Whether `object` has exactly these own enumerable keys in this order (JSON.stringify's order),
// none of them undefined (which JSON.stringify would leave out).
function hasKeysInOrder(object: object, keys: readonly string[]): boolean {
  if (typeof object !== 'object' || object === null || Array.isArray(object)) return false;
  let i = 0;
  for (const key in object) {
    if (key !== keys[i] || (object as Record<string, unknown>)[key] === undefined) return false;
    i++;
  }
  return i === keys.length;
}
