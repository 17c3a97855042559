import type { OutgoingPayload } from '../../core/ports/delivery-queue.js';
import { JournaledOutbox, type OutboxJournal } from './journaled-outbox.js';
import { OutboxState, type OutboxOptions } from './outbox-state.js';
import { MemoryPayloads } from './payload-store.js';

/** Nothing to write: the state is all there is. */
const NO_JOURNAL: OutboxJournal = {
  commit: () => Promise.resolve(),
  usable: () => undefined,
};

/**
 * The outbox in memory: the whole delivery state machine, nothing on disk, so a restart forgets
 * everything, and every pending payload is held in memory. For tests, and for embedding callers
 * who accept that (or take payloads themselves with `take()`).
 */
export class MemoryOutbox extends JournaledOutbox {
  constructor(options: OutboxOptions = {}) {
    super(new OutboxState(new MemoryPayloads(), Infinity, options), NO_JOURNAL);
  }

  /** Every payload whose body is still held, in enqueue order, whatever its state (a test view). */
  all(): OutgoingPayload[] {
    return [...this.state.entriesInOrder()].flatMap((entry) => this.state.payloadOf(entry) ?? []);
  }

  /** Take every pending payload, in enqueue order, to send yourself: each is settled as delivered. */
  take(): OutgoingPayload[] {
    const taken = [...this.state.entriesInOrder()]
      .filter((entry) => entry.state === 'pending')
      .map((entry) => this.state.payloadOf(entry)!);
    for (const payload of taken) this.state.handOver(payload.id);
    return taken;
  }
}
