/**
 * What the observer's own thread and the instance's thread say to each other. The thread answers
 * the node's posts and appends them to the event log; the instance processes what it appended.
 */

/** How the observer's thread opens the instance's event log for appending. */
export type EventLogSource =
  /** The embedded log in this folder (the instance's copy only reads it then). */
  | { kind: 'folder'; dir: string }
  /** The log in this PostgreSQL database (`postgres://…[?schema=name]`). */
  | { kind: 'postgres'; url: string };

/** What the thread is started with. */
export type ObserverThreadData = {
  source: EventLogSource;
  port: number;
  host: string;
  /** Bytes of bodies held at once; undefined for the observer's default. */
  bodiesInFlightBytes: number | undefined;
};

/** From the thread to the instance. */
export type ObserverThreadReport =
  | { type: 'listening'; port: number }
  /** It could not start; `port` is set for a port in use (EADDRINUSE), as Node's own error has it. */
  | { type: 'failed'; message: string; code: string | undefined; port: number | undefined }
  /**
   * An entry is durably in the log (its 200 is on its way), `seconds` after its post arrived, of
   * which its append took `appendSeconds`.
   */
  | {
      type: 'appended';
      id: number;
      path: string;
      receivedAt: number;
      seconds: number;
      appendSeconds: number;
    }
  | {
      type: 'log';
      level: 'debug' | 'info' | 'warn' | 'error';
      message: string;
      fields?: Record<string, unknown>;
    }
  /** A write of the log failed (`code` is the errno, e.g. ENOSPC) or reached the disk again. */
  | { type: 'space'; outcome: 'failed'; store: string; code: string | undefined; message: string }
  | { type: 'space'; outcome: 'wrote'; store: string }
  | { type: 'stopped' };

/** From the instance to the thread. */
export type ObserverThreadCommand = { type: 'stop'; graceMs: number };
