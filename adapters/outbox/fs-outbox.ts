import { FileJournal } from './file-journal.js';
import { JournaledOutbox } from './journaled-outbox.js';
import { OutboxState, type OutboxOptions } from './outbox-state.js';

/** Options of the file outbox. */
export type FsOutboxOptions = OutboxOptions & {
  /** Compact once the journal grows past this many bytes (default 256 MB; see `FileJournal`). */
  compactAtBytes?: number;
};

const DEFAULT_COMPACT_AT_BYTES = 256 * 1024 * 1024;

/**
 * The durable outbox: the memory state machine, rebuilt on open from its journal (`FileJournal`),
 * and every change made durable there before the call resolves. Reads answer from memory at once,
 * so they may show a change whose fsync is still under way (a delivery of it is at-least-once anyway).
 */
export class FsOutbox extends JournaledOutbox {
  private constructor(
    state: OutboxState,
    private readonly file: FileJournal,
  ) {
    super(state, file);
  }

  /** Open (or create) the outbox in `dir`: replay the newest journal, cutting off a torn tail. */
  static async open(dir: string, options: FsOutboxOptions = {}): Promise<FsOutbox> {
    const state = new OutboxState(options);
    const file = await FileJournal.open(dir, state, options.compactAtBytes ?? DEFAULT_COMPACT_AT_BYTES);
    return new FsOutbox(state, file);
  }

  /** Finish pending writes and close the journal; the outbox refuses changes afterwards. */
  close(): Promise<void> {
    return this.file.close();
  }
}

/** Open (or create) a file outbox in `dir`. */
export function openFsOutbox(dir: string, options?: FsOutboxOptions): Promise<FsOutbox> {
  return FsOutbox.open(dir, options);
}
