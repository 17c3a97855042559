/** One request a Stacks node posted to the event observer, as it was received. */
export type RawEvent = {
  /** Position in the log: 1, 2, 3, … in arrival order. */
  id: number;
  /** Milliseconds since the unix epoch when it was received. */
  received_at: number;
  /** The request path, e.g. `/new_block`. */
  path: string;
  /** The raw JSON body, unparsed. */
  body: string;
};

/** Where the log stands: its newest entry, and the last entry whose processing finished. */
export type EventLogPosition = {
  /** The newest stored entry (undefined while the log is empty). */
  newest: { id: number; received_at: number } | undefined;
  /** The id of the last processed entry (0 when none). */
  processed: number;
};

/**
 * The durable log of everything the node posted. `append` resolves only once the entry is on disk,
 * so the observer answers 200 only for what a crash cannot lose; processing follows behind and
 * records how far it got, so a restart resumes after the last processed entry.
 */
export interface EventLog {
  /** Store one posted body durably; resolves with its id once it would survive a crash. */
  append(path: string, body: string, receivedAt: number): Promise<number>;
  /** Up to `limit` entries with id greater than `afterId`, in order. */
  readAfter(afterId: number, limit: number): Promise<RawEvent[]>;
  /** The id of the newest entry (0 when empty). */
  lastId(): number;
  /** The id of the last entry whose processing finished (0 when none). */
  processedId(): Promise<number>;
  /** The note saved with the last processed mark (the processor's own state), if any. */
  processedNote(): Promise<string | undefined>;
  /** Record that every entry up to `id` has been processed, with a note of the processor's state. */
  markProcessed(id: number, note?: string): Promise<void>;
  /** The newest entry and the processed mark, as stored (any process may have moved them). */
  position(): Promise<EventLogPosition>;
}

export const EVENT_LOG = Symbol.for('stackhooks.EventLog');
