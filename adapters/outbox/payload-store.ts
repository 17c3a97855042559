import { serializePayload } from '../../core/payload/index.js';
import type { OutgoingPayload } from '../../core/ports/delivery-queue.js';
import { BodyCache } from './body-cache.js';
import { MetaText } from './meta-text.js';
import { metaOf, type PayloadMeta } from './outbox-entry.js';
import {
  placePayloadRecord,
  readPayloadBodyText,
  readPayloadMeta,
  readPayloadRecord,
  type BlockPlaces,
} from './payload-record.js';
import type { Locator, PayloadSegments } from './payload-segments.js';

/**
 * Where the outbox state machine keeps each payload whole (metadata and body), as one record
 * written once: the state holds only a locator, so a payload waiting in a slow hook's queue costs
 * memory only while it is among the few its hook keeps at hand. Synchronous, so the state machine
 * stays synchronous and a journal replay does exactly what the run did.
 */
export interface PayloadStore {
  /** Keep the payload (`meta`, never edited after, and `body`) as one record; returns where. The store counts it as referenced once. */
  put(meta: PayloadMeta, body: OutgoingPayload['body']): Locator;
  /** The whole payload from its record. */
  read(loc: Locator): OutgoingPayload;
  /** The payload's metadata from its record (its body not put together). */
  meta(loc: Locator): PayloadMeta;
  /** The body of payload `id` stored at `loc` (from memory when it is still held there). */
  body(id: string, loc: Locator): OutgoingPayload['body'];
  /** The JSON text payload `id` stored at `loc` is sent as (`serializePayload` of its body). */
  bodyText(id: string, loc: Locator): string;
  /** The record is referenced once more (a replayed or restored locator). */
  retain(loc: Locator): void;
  /** The record is referenced once less; with no reference left it may go. */
  release(loc: Locator, id: string): void;
}

/** The memory outbox's records: the payload objects themselves, by a running number. */
export class MemoryPayloads implements PayloadStore {
  private readonly payloads = new Map<number, OutgoingPayload>();
  private next = 0;

  /** Keep the payload as an object (its body is never edited after shaping). */
  put(meta: PayloadMeta, body: OutgoingPayload['body']): Locator {
    const loc = { seg: 0, off: this.next++, len: 0 };
    this.payloads.set(loc.off, { ...meta, body });
    return loc;
  }

  /** The payload kept at `loc`. */
  read(loc: Locator): OutgoingPayload {
    const payload = this.payloads.get(loc.off);
    if (!payload) throw new Error(`outbox invariant broken: no payload at ${loc.off}`);
    return payload;
  }

  /** The metadata of the payload kept at `loc`. */
  meta(loc: Locator): PayloadMeta {
    return metaOf(this.read(loc));
  }

  /** The body kept at `loc`. */
  body(_id: string, loc: Locator): OutgoingPayload['body'] {
    return this.read(loc).body;
  }

  /** The text of the body kept at `loc`. */
  bodyText(_id: string, loc: Locator): string {
    return serializePayload(this.read(loc).body);
  }

  /** Nothing to count: each payload is referenced once. */
  retain(): void {}

  /** Let the payload go. */
  release(loc: Locator): void {
    this.payloads.delete(loc.off);
  }
}

/** Bodies kept in memory for receivers that keep up, by default (as JSON bytes). */
export const DEFAULT_BODY_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * The file outbox's records: JSON in `PayloadSegments`, a block that payloads share written once
 * per segment (`placePayloadRecord`), with the bodies of the most recently queued payloads also kept
 * as objects (`BodyCache`, bounded) so that healthy hooks are sent without a read.
 */
export class SegmentPayloads implements PayloadStore {
  private readonly cache: BodyCache;
  private readonly places: BlockPlaces = new WeakMap();
  private readonly metaText = new MetaText();

  constructor(
    private readonly segments: PayloadSegments,
    cacheBytes = DEFAULT_BODY_CACHE_BYTES,
  ) {
    this.cache = new BodyCache(cacheBytes);
  }

  /** Write the payload as a record (placed now, written by the next flush) and cache its body. */
  put(meta: PayloadMeta, body: OutgoingPayload['body']): Locator {
    const { loc, bodyLength } = placePayloadRecord(this.segments, this.places, meta, body, this.metaText);
    this.segments.retain(loc);
    this.cache.put(meta.id, body, bodyLength);
    return loc;
  }

  /** The whole payload, parsed from its record. */
  read(loc: Locator): OutgoingPayload {
    return readPayloadRecord(this.segments, loc);
  }

  /** The payload's metadata, parsed from its record. */
  meta(loc: Locator): PayloadMeta {
    return readPayloadMeta(this.segments, loc);
  }

  /** The body from the cache, or from its record. */
  body(id: string, loc: Locator): OutgoingPayload['body'] {
    return this.cache.get(id) ?? this.read(loc).body;
  }

  /**
   * The body's text: serialized from the cached object (its blocks' texts are shared with the
   * payloads queued beside it), or put together from its record, unparsed.
   */
  bodyText(id: string, loc: Locator): string {
    const cached = this.cache.get(id);
    return cached === undefined ? readPayloadBodyText(this.segments, loc) : serializePayload(cached);
  }

  /** Count one more reference to the record's segment. */
  retain(loc: Locator): void {
    this.segments.retain(loc);
  }

  /** Count one reference fewer, and drop the cached body. */
  release(loc: Locator, id: string): void {
    this.segments.release(loc);
    this.cache.drop(id);
  }

  /** Bytes of bodies held in memory now. */
  get cachedBytes(): number {
    return this.cache.size;
  }
}
