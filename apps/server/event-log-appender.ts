import type { DiskSpaceReport } from '../../core/storage/write-failure.js';
import type { EventLogSource } from './observer-thread-messages.js';

/**
 * How an observer in a thread of its own appends to the instance's event log: where the log is,
 * and how the instance's copy learns of what was appended there.
 */
export type EventLogAppender = {
  source: EventLogSource;
  /** Take note of an entry the thread appended (reads of the instance's copy go up to it). */
  follow(newest: { id: number; received_at: number }): void;
  /** The instance's copy stops appending while the thread does (true), and takes over after (false). */
  appendElsewhere(elsewhere: boolean): Promise<void>;
  /** Told when the thread's writes fail for a full disk, and when they reach it again. */
  space: DiskSpaceReport | undefined;
};
