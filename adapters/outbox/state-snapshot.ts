import type { ColdRunSnapshot } from './cold-run.js';
import { encodeEntry, locTuple, recordEntry, type JournalEntry } from './journal-entry.js';
import type { Locator } from './payload-segments.js';
import { frameRecord } from './journal-file.js';
import type { OutboxEntry } from './outbox-entry.js';
import type { OutboxState } from './outbox-state.js';
import type { SentInstant } from './sent-instant.js';
import { SettledRun, type SettledView } from './settled-run.js';

/** Records are encoded and handed out in slices about this big, so no slice holds the loop long. */
export const SNAPSHOT_SLICE_BYTES = 256 * 1024;
/** Sent blocks per snapshot record. */
const SENT_PER_RECORD = 1000;

/**
 * The outbox state as it was at one instant, encoded to journal records a slice at a time while
 * the outbox keeps running. Taking it costs a copy of references (the entries in memory, each
 * hook's settled run, shared until it changes in place), a count of each hook's sent blocks (read
 * from the live lists when the hook's turn comes, `SentInstant`) and the small parts (each hook's
 * pending ids in memory, its cold runs as packed arrays); an entry is encoded when its turn comes,
 * or at once, as it was, when the outbox is about to change it first (`OutboxState.watchChanges`).
 * So the records show the instant the snapshot was taken whatever ran between two slices, and
 * memory holds one slice of records and one hook's sent blocks, not the whole state encoded or
 * copied: the hooks are sent blocks all the while, and their blocks are most of the snapshot.
 */
export class StateSnapshot {
  /** Records of entries that changed after the instant, as they were at it. */
  private readonly preserved = new Map<Readonly<OutboxEntry>, Buffer>();
  private released = false;

  private constructor(
    private readonly state: OutboxState,
    private readonly clock: number,
    private readonly entries: Readonly<OutboxEntry>[],
    private readonly queues: ([string, string[], string[]] | undefined)[],
    private readonly cold: ([string, ColdRunSnapshot] | undefined)[],
    private readonly settled: ([string, SettledView] | undefined)[],
    private readonly sent: SentInstant,
    private readonly sentOnDisk: [string, Locator[]][],
  ) {}

  /** Take the state as it is now; it is watched until `release`. */
  static take(state: OutboxState): StateSnapshot {
    const snapshot = new StateSnapshot(
      state,
      state.clock,
      [...state.entriesInOrder()],
      [...state.pendingQueues()],
      [...state.coldRuns()],
      [...state.settledRuns()],
      state.freezeSent(),
      state.sentBlocksOnDisk(),
    );
    state.watchChanges((entry) => snapshot.preserve(entry));
    return snapshot;
  }

  /**
   * The snapshot's records, framed, in slices of about `sliceBytes`: the clock, every entry (so a
   * replay rebuilds the same log), each hook's pending order, its cold runs, its settled run in
   * chunks, its sent blocks.
   */
  *slices(sliceBytes = SNAPSHOT_SLICE_BYTES): Generator<Buffer> {
    let slice: Buffer[] = [];
    let bytes = 0;
    const add = (record: Buffer): Buffer | undefined => {
      slice.push(record);
      bytes += record.length;
      if (bytes < sliceBytes) return undefined;
      const full = Buffer.concat(slice, bytes);
      slice = [];
      bytes = 0;
      return full;
    };
    const encoded = (entry: JournalEntry) => frameRecord(encodeEntry(entry));
    let full = add(encoded({ t: 'clock', seen: this.clock }));
    for (const entry of this.entries) {
      if (full) yield full;
      full = add(this.preserved.get(entry) ?? encoded(recordEntry(entry)));
    }
    for (const [hook, ids, parked] of letGo(this.queues)) {
      if (full) yield full;
      full = add(encoded({ t: 'queue', hook, ids, ...(parked.length > 0 && { parked }) }));
    }
    for (const [hook, run] of letGo(this.cold)) {
      if (full) yield full;
      full = add(encoded({ t: 'cold', hook, run }));
    }
    // A settled run that changed since holds its own copy: the one shared here goes once encoded.
    for (const [hook, view] of letGo(this.settled)) {
      for (const run of SettledRun.chunks(view)) {
        if (full) yield full;
        full = add(encoded({ t: 'settled_run', hook, run }));
      }
    }
    for (const hook of this.sent.hooks()) {
      const blocks = this.sent.take(hook);
      // In parts, so a hook sent thousands of blocks is not one long record to encode.
      for (let from = 0; from < blocks.length; from += SENT_PER_RECORD) {
        if (full) yield full;
        full = add(encoded({ t: 'sent', hook, blocks: blocks.slice(from, from + SENT_PER_RECORD) }));
      }
    }
    for (let from = 0; from < this.sentOnDisk.length; from += SENT_PER_RECORD) {
      if (full) yield full;
      const blocks = this.sentOnDisk
        .slice(from, from + SENT_PER_RECORD)
        .map(([hash, locs]): [string, [number, number, number][]] => [hash, locs.map(locTuple)]);
      full = add(encoded({ t: 'sent_on_disk', blocks }));
    }
    if (full) yield full;
    if (bytes > 0) yield Buffer.concat(slice, bytes);
  }

  /** Stop watching the state (the snapshot is written, or given up). */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.state.watchChanges(undefined);
    this.state.thawSent();
  }

  // An entry is about to change: keep its record as it is now, the first time only.
  private preserve(entry: Readonly<OutboxEntry>): void {
    if (!this.preserved.has(entry)) this.preserved.set(entry, frameRecord(encodeEntry(recordEntry(entry))));
  }
}

/** Hand out the parts in order, letting go of each once the next is asked for. */
function* letGo<T>(parts: (T | undefined)[]): Generator<T> {
  for (let i = 0; i < parts.length; i++) {
    yield parts[i]!;
    parts[i] = undefined;
  }
}
