import type { SendResult } from './webhook-sender.js';

/** Where a `file_append` path lands: its file as a `file:` URL, or why it may not be written. */
export type FilePlacement = { url: string } | { refusal: string };

/**
 * The files Chainhook 1.x's `file_append` predicates write: only inside the one folder the operator
 * names. A payload for such a predicate goes through the outbox like any other, and its delivery
 * appends it as one line instead of posting it.
 */
export interface PayloadFiles {
  /** The file a predicate's `path` names (relative to the folder, or absolute inside it), or the reason it is refused. */
  place(path: string): Promise<FilePlacement>;
  /**
   * Append `body` and a newline to the file of a `file:` URL, on disk before it resolves. Never throws:
   * reports like a webhook attempt (200 when appended; a refused target when the file is outside the folder).
   */
  append(url: string, body: string): Promise<SendResult>;
}

export const PAYLOAD_FILES = Symbol.for('stackhooks.PayloadFiles');

/** Whether a delivery target is a file (a `file_append` predicate's) rather than an HTTP receiver. */
export function isFileTarget(url: string): boolean {
  return url.startsWith('file:');
}
