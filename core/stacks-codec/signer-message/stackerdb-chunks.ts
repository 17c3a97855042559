import { createHash } from 'node:crypto';
import { recoverSignerKey } from './recover-signer-key.js';
import { decodeSignerMessage, UndeliveredKind, type SignerMessageJson } from './signer-message.js';
import { SignerWireError } from './wire-reader.js';

/** One signer message read from a StackerDB slot, with its writer's key (1.x's `StacksStackerDbChunk`). */
export type SignerChunk = {
  /** The StackerDB contract's name (`miners`, `signers-0-1`, …). */
  contract: string;
  /** The slot's signature, `0x` hex. */
  sig: string;
  /** The compressed public key recovered from `sig`, `0x` hex. */
  pubkey: string;
  message: SignerMessageJson;
};

/**
 * A slot that gave no message, and why. `undelivered` marks a well-formed message of a kind 1.x
 * never delivered; otherwise the chunk (or the post around it) is malformed.
 */
export type SkippedChunk = { slot_id: number | null; reason: string; undelivered: boolean };

/** What a `/stackerdb_chunks` post holds: its messages, in slot order, and the slots skipped. */
export type StackerDbPost = { chunks: SignerChunk[]; skipped: SkippedChunk[] };

const NOT_A_POST = 'not a StackerDB post: no contract_id.name or modified_slots';
const HEX = /^(0x)?([0-9a-fA-F]{2})*$/;

/**
 * Read a node's `/stackerdb_chunks` body (`contract_id`, `modified_slots` of `sig`, `data`,
 * `slot_id`, `slot_version`): each slot's data decoded as a signer message, and its writer's key
 * recovered from the slot signature, which signs the slot's metadata digest. A slot that does not
 * decode is skipped with its reason; the others still count, so one bad chunk costs one message.
 */
export function readStackerDbPost(body: unknown): StackerDbPost {
  const post = body as { contract_id?: { name?: unknown }; modified_slots?: unknown } | null;
  const contract = post?.contract_id?.name;
  if (typeof contract !== 'string' || !Array.isArray(post?.modified_slots))
    return { chunks: [], skipped: [{ slot_id: null, reason: NOT_A_POST, undelivered: false }] };
  const chunks: SignerChunk[] = [];
  const skipped: SkippedChunk[] = [];
  for (const slot of post.modified_slots as unknown[]) {
    try {
      chunks.push(readSlot(contract, slot));
    } catch (err) {
      // Any failure (a library's too) costs this message only, never the chain's processing.
      const slotId = (slot as { slot_id?: unknown } | null)?.slot_id;
      skipped.push({
        slot_id: typeof slotId === 'number' ? slotId : null,
        reason: err instanceof Error ? err.message : String(err),
        undelivered: err instanceof UndeliveredKind,
      });
    }
  }
  return { chunks, skipped };
}

function readSlot(contract: string, value: unknown): SignerChunk {
  const slot = value as { sig?: unknown; data?: unknown; slot_id?: unknown; slot_version?: unknown } | null;
  const { sig, data, slot_id: slotId, slot_version: slotVersion } = slot ?? {};
  if (!isU32(slotId) || !isU32(slotVersion))
    throw new SignerWireError('slot_id and slot_version must be u32 integers');
  if (typeof sig !== 'string' || !HEX.test(sig)) throw new SignerWireError('sig must be hex');
  if (typeof data !== 'string' || !HEX.test(data)) throw new SignerWireError('data must be hex');
  const bytes = Buffer.from(data.replace(/^0x/, ''), 'hex');
  const sigBytes = Buffer.from(sig.replace(/^0x/, ''), 'hex');
  const message = decodeSignerMessage(bytes);
  return {
    contract,
    sig: `0x${sigBytes.toString('hex')}`,
    pubkey: recoverSignerKey(slotDigest(slotId, slotVersion, bytes), sigBytes),
    message,
  };
}

/** The digest a StackerDB slot's writer signs: the slot id, its version and the hash of its data. */
export function slotDigest(slotId: number, slotVersion: number, data: Uint8Array): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(slotId, 0);
  header.writeUInt32BE(slotVersion, 4);
  const dataHash = createHash('sha512-256').update(data).digest();
  return createHash('sha512-256').update(header).update(dataHash).digest();
}

function isU32(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 0xffff_ffff;
}
