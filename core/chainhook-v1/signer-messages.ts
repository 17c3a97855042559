import type { BlockIdentifier } from '../chain/block.js';
import type { SignerChunk } from '../stacks-codec/signer-message/stackerdb-chunks.js';
import type { NetworkPredicate, StacksScope } from './predicate.js';
import type { ChainhookV1Payload } from './v1-payload.js';

/** One signer message as 1.x posted it in a payload's `events` (`StacksNonConsensusEventData`). */
export type SignerMessageEvent = {
  payload: { type: 'SignerMessage'; data: SignerChunk };
  /** When the observer received the post, in milliseconds since the unix epoch. */
  received_at_ms: number;
  /** The canonical chain's tip when the post was received. */
  received_at_block: BlockIdentifier;
};

/** The events of one `/stackerdb_chunks` post: its messages, each with when it came and the tip then. */
export function signerMessageEvents(
  chunks: readonly SignerChunk[],
  receivedAtMs: number,
  tip: BlockIdentifier,
): SignerMessageEvent[] {
  return chunks.map((chunk) => ({
    payload: { type: 'SignerMessage', data: chunk },
    received_at_ms: receivedAtMs,
    received_at_block: { ...tip },
  }));
}

/**
 * Compile a `signer_message` scope: `after_timestamp` takes messages received at or after that
 * time in milliseconds (1.x compared `received_at_ms >= after_timestamp`); `signer_pubkey` takes
 * the messages of one signer's key, with or without `0x`, in any case (1.x read it and never
 * matched it). Undefined for the other scopes, which look at blocks.
 */
export function signerMessageTest(scope: StacksScope): ((event: SignerMessageEvent) => boolean) | undefined {
  if (scope.scope !== 'signer_message') return undefined;
  if ('after_timestamp' in scope) {
    const after = scope.after_timestamp;
    return (event) => event.received_at_ms >= after;
  }
  const key = `0x${scope.signer_pubkey.replace(/^0x/i, '').toLowerCase()}`;
  return (event) => event.payload.data.pubkey === key;
}

/**
 * The body 1.x posted for signer messages: no blocks, the post's matching messages in `events`.
 * `events` must hold at least one message: 1.x posted nothing for a post none matched.
 */
export function shapeSignerMessagePayload(input: {
  uuid: string;
  predicate: NetworkPredicate;
  events: SignerMessageEvent[];
}): ChainhookV1Payload {
  return {
    apply: [],
    rollback: [],
    chainhook: { uuid: input.uuid, predicate: input.predicate.if_this, is_streaming_blocks: true },
    events: input.events,
  };
}
