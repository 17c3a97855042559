import type { DeliveryAttempt } from '../../core/delivery/delivery-record.js';
import type { AttemptOutcome, OutgoingPayload } from '../../core/ports/delivery-queue.js';
import type { ColdRunSnapshot } from './cold-run.js';
import { frameText } from './journal-file.js';
import { placedOf, type EnqueuedBatch } from './enqueued-batch.js';
import type { OutboxEntry, PayloadMeta } from './outbox-entry.js';
import type { OutboxState } from './outbox-state.js';
import type { Locator } from './payload-segments.js';
import type { SettledChunk } from './settled-run.js';

/** A locator as the journal writes it: segment, offset, length. */
type LocatorTuple = [number, number, number];

/**
 * One record of the outbox journal. The first nine kinds are the changes as they happen; the last
 * seven make up a compaction snapshot (the live state, written as one new segment). Payload bodies
 * are not in the journal but in the payload segments, which `loc` points into; a journal written
 * before that (a payload or a record with its `body`) is read, and its bodies moved into segments.
 */
export type JournalEntry =
  // One payload queued (written before batches); a batch is the payloads one enqueue added.
  | { t: 'enqueued'; payload: PayloadMeta; loc: LocatorTuple }
  | EnqueuedBatch
  // `attempt` null: a payload held back without an attempt.
  | { t: 'attempt'; id: string; attempt: DeliveryAttempt | null; outcome: AttemptOutcome }
  // `at` (wall clock) is for a person reading the journal; replay does not need it.
  | { t: 'failed_pending'; hook: string; reason: string; at: number; except?: string }
  | { t: 'dropped'; hook: string }
  | { t: 'redelivered'; hook: string; id: string; now: number }
  // `now`: the time of the prune, which moves the outbox's clock (the body grace period runs on it).
  | { t: 'pruned'; before: number; now?: number }
  // A settled entry left memory; its settlement record is at `loc` (in `settled/`).
  | { t: 'settled'; hook: string; id: string; loc: LocatorTuple }
  // A sent block's records on disk changed: `loc` added (it left memory), or instead of the others.
  | { t: 'sent_moved'; hash: string; loc: LocatorTuple | null; replace?: true }
  | { t: 'clock'; seen: number }
  | { t: 'record'; entry: Omit<OutboxEntry, 'loc'> & { loc?: LocatorTuple } }
  | { t: 'queue'; hook: string; ids: string[]; parked?: string[] }
  | { t: 'cold'; hook: string; run: ColdRunSnapshot }
  | { t: 'settled_run'; hook: string; run: SettledChunk }
  | { t: 'sent'; hook: string; blocks: [string, readonly number[]][] }
  | { t: 'sent_on_disk'; blocks: [string, LocatorTuple[]][] };

/** An entry as a journal written before payload segments holds it. */
type LegacyEntry =
  | { t: 'enqueued'; payload: OutgoingPayload; loc?: undefined }
  | { t: 'record'; entry: Omit<OutboxEntry, 'loc'> & { body?: OutgoingPayload['body']; loc?: undefined } };

/** The journal's form of a locator. */
export function locTuple(loc: Locator): LocatorTuple {
  return [loc.seg, loc.off, loc.len];
}

const locOf = ([seg, off, len]: LocatorTuple): Locator => ({ seg, off, len });

/** The bytes of an entry (JSON). */
export function encodeEntry(entry: JournalEntry): Buffer {
  return Buffer.from(JSON.stringify(entry), 'utf8');
}

/** An entry as a framed journal record, its JSON encoded straight into the frame. */
export function frameEntry(entry: JournalEntry): Buffer {
  return frameText(JSON.stringify(entry));
}

/** Replay one journal record into the state; true when it was in the layout before payload segments. */
export function applyEntry(state: OutboxState, payload: Buffer): boolean {
  const entry = JSON.parse(payload.toString('utf8')) as JournalEntry | LegacyEntry;
  switch (entry.t) {
    case 'enqueued':
      if (!entry.loc) {
        state.enqueue([entry.payload]);
        return true;
      }
      state.enqueuePlaced({ meta: entry.payload, loc: locOf(entry.loc) });
      return false;
    case 'enqueued_batch':
      for (const placed of placedOf(entry)) state.enqueuePlaced(placed);
      return false;
    case 'attempt':
      state.recordAttempt(entry.id, entry.attempt, entry.outcome);
      return false;
    case 'failed_pending':
      state.failPending(entry.hook, entry.reason, entry.except);
      return false;
    case 'dropped':
      state.dropHook(entry.hook);
      return false;
    case 'redelivered':
      state.redeliver(entry.hook, entry.id, entry.now);
      return false;
    case 'pruned':
      state.prune(entry.before, entry.now);
      return false;
    case 'settled':
      state.movedToDisk(entry.id, locOf(entry.loc));
      return false;
    case 'sent_moved':
      state.sentMovedToDisk(entry.hash, entry.loc && locOf(entry.loc), entry.replace === true);
      return false;
    case 'clock':
      state.restoreClock(entry.seen);
      return false;
    case 'record': {
      const { loc, ...rest } = entry.entry;
      if ('body' in rest) {
        const { body, ...kept } = rest;
        state.restoreEntry({ ...kept, loc: undefined }, body);
        return true;
      }
      state.restoreEntry({ ...rest, loc: loc && locOf(loc) });
      return false;
    }
    case 'queue':
      state.restoreQueue(entry.hook, entry.ids, entry.parked);
      return false;
    case 'cold':
      state.restoreColdRun(entry.hook, entry.run);
      return false;
    case 'settled_run':
      state.restoreSettled(entry.hook, entry.run);
      return false;
    case 'sent':
      state.restoreSent(entry.hook, entry.blocks);
      return false;
    case 'sent_on_disk':
      for (const [hash, locs] of entry.blocks) state.restoreSentOnDisk(hash, locs.map(locOf));
      return false;
    default:
      // A journal from a newer release: replaying part of it would silently lose state.
      throw new Error(`outbox journal: unknown entry type ${JSON.stringify((entry as { t: unknown }).t)}`);
  }
}

/** An entry in memory as the snapshot record that restores it. */
export function recordEntry({ loc, ...entry }: Readonly<OutboxEntry>): JournalEntry {
  return { t: 'record', entry: { ...entry, ...(loc && { loc: locTuple(loc) }) } };
}
