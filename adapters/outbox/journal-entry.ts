import type { DeliveryAttempt } from '../../core/delivery/delivery-record.js';
import type { AttemptOutcome, OutgoingPayload } from '../../core/ports/delivery-queue.js';
import type { OutboxEntry } from './outbox-entry.js';
import type { OutboxState } from './outbox-state.js';

/**
 * One record of the outbox journal. The first six kinds are the changes as they happen; the last
 * four make up a compaction snapshot (the live state, written as one new segment).
 */
export type JournalEntry =
  | { t: 'enqueued'; payload: OutgoingPayload }
  // `attempt` null: a payload held back without an attempt.
  | { t: 'attempt'; id: string; attempt: DeliveryAttempt | null; outcome: AttemptOutcome }
  // `at` (wall clock) is for a person reading the journal; replay does not need it.
  | { t: 'failed_pending'; hook: string; reason: string; at: number; except?: string }
  | { t: 'dropped'; hook: string }
  | { t: 'redelivered'; hook: string; id: string; now: number }
  | { t: 'pruned'; before: number }
  | { t: 'clock'; seen: number }
  | { t: 'record'; entry: OutboxEntry }
  | { t: 'queue'; hook: string; ids: string[] }
  | { t: 'sent'; hook: string; blocks: [string, number[]][] };

/** The bytes of an entry (JSON; a body let go is simply absent). */
export function encodeEntry(entry: JournalEntry): Buffer {
  return Buffer.from(JSON.stringify(entry), 'utf8');
}

/** Replay one journal record into the state. */
export function applyEntry(state: OutboxState, payload: Buffer): void {
  const entry = JSON.parse(payload.toString('utf8')) as JournalEntry;
  switch (entry.t) {
    case 'enqueued':
      state.enqueue([entry.payload]);
      return;
    case 'attempt':
      state.recordAttempt(entry.id, entry.attempt, entry.outcome);
      return;
    case 'failed_pending':
      state.failPending(entry.hook, entry.reason, entry.except);
      return;
    case 'dropped':
      state.dropHook(entry.hook);
      return;
    case 'redelivered':
      state.redeliver(entry.hook, entry.id, entry.now);
      return;
    case 'pruned':
      state.prune(entry.before);
      return;
    case 'clock':
      state.restoreClock(entry.seen);
      return;
    case 'record':
      state.restoreEntry(entry.entry);
      return;
    case 'queue':
      state.restoreQueue(entry.hook, entry.ids);
      return;
    case 'sent':
      state.restoreSent(entry.hook, entry.blocks);
      return;
    default:
      // A journal from a newer release: replaying part of it would silently lose state.
      throw new Error(`outbox journal: unknown entry type ${JSON.stringify((entry as { t: unknown }).t)}`);
  }
}

/**
 * The live state as journal entries: the clock, every record (bodies of payloads let go are left
 * out), each hook's pending order, and each hook's sent blocks. Records go first, in enqueue
 * order, so a replay rebuilds the same log and the same `all()` order.
 */
export function* snapshotEntries(state: OutboxState): Generator<JournalEntry> {
  yield { t: 'clock', seen: state.clock };
  for (const entry of state.entriesInOrder()) yield { t: 'record', entry };
  for (const [hook, ids] of state.pendingQueues()) yield { t: 'queue', hook, ids };
  for (const [hook, blocks] of state.sentBlocks()) yield { t: 'sent', hook, blocks };
}
