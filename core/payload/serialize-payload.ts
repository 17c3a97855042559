import type { ChainhookV1Payload } from '../chainhook-v1/v1-payload.js';
import type { WebhookPayload } from './webhook-payload.js';

/**
 * The JSON text of each shaped block, made once: hooks that match a block alike share its shaped
 * object (`BlockShapes`, and `V1BlockShapes` for 1.x predicates), so its text is shared too, and a
 * block's payloads cost one serialization of the block plus a few bytes each. Weak, so a text goes
 * with its block.
 */
const blockTexts = new WeakMap<object, string>();

const PAYLOAD_KEYS = ['chainhook', 'event'];
const EVENT_KEYS = ['chain', 'network', 'apply', 'rollback'];
const CHAINHOOK_KEYS = ['uuid', 'name'];
const V1_PAYLOAD_KEYS = ['apply', 'rollback', 'chainhook', 'events'];

/**
 * A body's text around its two block lists: `head` + apply's blocks + `middle` + rollback's blocks +
 * `tail`, each list in brackets, its blocks separated by commas.
 */
type BodyFrame = {
  head: string;
  apply: readonly unknown[];
  middle: string;
  rollback: readonly unknown[];
  tail: string;
};

/**
 * The JSON text of a webhook body, 2.0's or 1.x's: exactly `JSON.stringify(payload)`, with the text
 * of each block reused from earlier payloads that shared the block object. Shaped payloads are
 * read-only, which is what makes a block's text safe to keep; a body of any other layout is
 * serialized whole.
 */
export function serializePayload(payload: WebhookPayload | ChainhookV1Payload): string {
  const frame = bodyFrame(payload);
  if (frame === undefined) return JSON.stringify(payload);
  return `${frame.head}${blocksText(frame.apply)}${frame.middle}${blocksText(frame.rollback)}${frame.tail}`;
}

/**
 * A body's JSON text cut around its shared blocks: `texts[0] + blocks[0].text + texts[1] + … +
 * texts[n]` is `serializePayload(payload)`. Each block is the shaped object payloads that share it
 * hold, with its text made once, so a store can keep that text once for all of them. A body of any
 * other layout (or one without blocks) is one text and no blocks.
 */
export type PayloadTextParts = { texts: string[]; blocks: { block: object; text: string }[] };

/** The JSON text of a webhook body, 2.0's or 1.x's, as its own parts and its shared blocks (see `PayloadTextParts`). */
export function payloadTextParts(payload: WebhookPayload | ChainhookV1Payload): PayloadTextParts {
  const frame = bodyFrame(payload);
  if (frame === undefined) return { texts: [JSON.stringify(payload)], blocks: [] };
  const parts: PayloadTextParts = { texts: [], blocks: [] };
  let text = `${frame.head}[`;
  const addBlocks = (blocks: readonly unknown[]) => {
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
  addBlocks(frame.apply);
  text += `]${frame.middle}[`;
  addBlocks(frame.rollback);
  parts.texts.push(`${text}]${frame.tail}`);
  return parts;
}

// The frame of a body in 2.0's layout (`{chainhook, event: {chain, network, apply, rollback}}`) or
// 1.x's (`{apply, rollback, chainhook, events}`), keys in that order; undefined for any other.
function bodyFrame(payload: WebhookPayload | ChainhookV1Payload): BodyFrame | undefined {
  if (hasKeysInOrder(payload, V1_PAYLOAD_KEYS)) {
    const v1 = payload as ChainhookV1Payload;
    if (!Array.isArray(v1.apply) || !Array.isArray(v1.rollback)) return undefined;
    return {
      head: '{"apply":',
      apply: v1.apply,
      middle: ',"rollback":',
      rollback: v1.rollback,
      tail: `,"chainhook":${JSON.stringify(v1.chainhook)},"events":${JSON.stringify(v1.events)}}`,
    };
  }
  if (!hasKeysInOrder(payload, PAYLOAD_KEYS)) return undefined;
  const { chainhook, event } = payload as WebhookPayload;
  if (!hasKeysInOrder(event, EVENT_KEYS) || !Array.isArray(event.apply) || !Array.isArray(event.rollback))
    return undefined;
  return {
    head: `{"chainhook":${chainhookText(chainhook)}${eventHead(event.chain, event.network)}`,
    apply: event.apply,
    middle: ',"rollback":',
    rollback: event.rollback,
    tail: '}}',
  };
}

// `JSON.stringify` of a 2.0 body's `chainhook`: its two strings put in place when it is `{uuid, name}`.
function chainhookText(chainhook: WebhookPayload['chainhook']): string {
  if (!hasKeysInOrder(chainhook, CHAINHOOK_KEYS)) return JSON.stringify(chainhook);
  const { uuid, name } = chainhook;
  if (typeof uuid !== 'string' || typeof name !== 'string') return JSON.stringify(chainhook);
  return `{"uuid":${JSON.stringify(uuid)},"name":${JSON.stringify(name)}}`;
}

/** The text between a 2.0 body's `chainhook` and its apply list for the last chain and network seen: a service has one. */
let lastEventHead: { chain: string; network: string; head: string } | undefined;

function eventHead(chain: unknown, network: unknown): string {
  const last = lastEventHead;
  if (last !== undefined && chain === last.chain && network === last.network) return last.head;
  const head = `,"event":{"chain":${JSON.stringify(chain)},"network":${JSON.stringify(network)},"apply":`;
  if (typeof chain === 'string' && typeof network === 'string') lastEventHead = { chain, network, head };
  return head;
}

function blocksText(blocks: readonly unknown[]): string {
  let text = '[';
  for (let i = 0; i < blocks.length; i++) {
    if (i > 0) text += ',';
    text += blockText(blocks[i]);
  }
  return `${text}]`;
}

function blockText(block: unknown): string {
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
function hasKeysInOrder(object: unknown, keys: readonly string[]): boolean {
  if (typeof object !== 'object' || object === null || Array.isArray(object)) return false;
  let i = 0;
  for (const key in object) {
    if (key !== keys[i] || (object as Record<string, unknown>)[key] === undefined) return false;
    i++;
  }
  return i === keys.length;
}
