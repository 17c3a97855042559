import type { OutboxEntry } from './outbox-entry.js';
import type { Locator, PayloadSegments } from './payload-segments.js';

/** A settled log entry as its record on disk holds it: everything but where its payload is. */
export type Settlement = Omit<OutboxEntry, 'loc'>;

/**
 * Where settled log entries go when they leave memory: one record each, written once, read back
 * for a listing, a redelivery or a late attempt. Synchronous, as the payload store is, so the
 * state machine stays synchronous.
 */
export interface SettlementStore {
  /** Keep the entry's settlement as one record; returns where. It counts as referenced once. */
  put(settlement: Settlement): Locator;
  /** The settlement kept at `loc`. */
  read(loc: Locator): Settlement;
  /** The record is referenced once more (a replayed or restored locator). */
  retain(loc: Locator): void;
  /** The record is referenced once less; with no reference left it may go. */
  release(loc: Locator): void;
}

/**
 * Settlement records as JSON in segments of their own (`settled/`), apart from the bodies: they
 * are kept for the whole retention, bodies only for their window, and a segment is deleted only
 * once nothing in it is kept.
 */
export class SegmentSettlements implements SettlementStore {
  constructor(private readonly segments: PayloadSegments) {}

  /** Place the record (written by the next flush, before the journal that names it). */
  put(settlement: Settlement): Locator {
    const { seq, meta, state, next_attempt_at, failure_reason, held_reason, attempts, delivered_at } =
      settlement;
    const text = JSON.stringify({
      seq,
      meta,
      state,
      next_attempt_at,
      failure_reason,
      held_reason,
      attempts,
      delivered_at,
    });
    const loc = this.segments.append(text);
    this.segments.retain(loc);
    return loc;
  }

  /** The settlement, parsed from its record. */
  read(loc: Locator): Settlement {
    return JSON.parse(this.segments.read(loc).toString('utf8')) as Settlement;
  }

  /** Count one more reference to the record's segment. */
  retain(loc: Locator): void {
    this.segments.retain(loc);
  }

  /** Count one reference fewer. */
  release(loc: Locator): void {
    this.segments.release(loc);
  }
}
