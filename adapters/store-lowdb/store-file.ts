import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Low } from 'lowdb';
import { DataFile } from 'lowdb/node';
import { emptyDocument, toStoreDocument, toStoreState } from './store-document.js';
import type { StoreDocument, StoreState } from './store-document.js';

/** The file name inside the data folder. */
export const STORE_FILE_NAME = 'stackhooks.json';

/** Inversify token for the shared file, so both stores can be bound to one instance. */
export const STORE_FILE = Symbol.for('stackhooks.lowdb.StoreFile');

/** What a change reports: its result for the caller, and whether it touched the state (else no write). */
export type ChangeOutcome<T> = { result: T; changed: boolean };

/**
 * The one JSON file that the lowdb hook repository and account store share. Changes are applied to
 * the in-memory state synchronously, so no two can interleave, and a change's promise settles once
 * a file write that contains it has finished. Writes never overlap: changes that arrive while one is
 * in flight are all carried by the next single write.
 */
export class StoreFile {
  readonly #low: Low<StoreDocument>;
  /** The write that will carry every change applied since the last write began. */
  #queued: Promise<void> | undefined;
  /** The file write in flight. */
  #writing: Promise<void> | undefined;
  /** The state holds changes that no finished or started write carries. */
  #dirty = false;
  #closed = false;
  #writes = 0;

  private constructor(
    /** The file's path, for messages. */
    readonly path: string,
    /** The live state; only `change` callbacks may modify it. */
    readonly state: StoreState,
    low: Low<StoreDocument>,
  ) {
    this.#low = low;
  }

  /** How many file writes have finished; far fewer than changes when writes coalesce. */
  get writes(): number {
    return this.#writes;
  }

  /** Open (creating the folder, not the file) `{dataDir}/stackhooks.json`; a missing file is an empty store. */
  static async open(dataDir: string): Promise<StoreFile> {
    await mkdir(dataDir, { recursive: true });
    const path = join(dataDir, STORE_FILE_NAME);
    // Compact JSON: pretty-printing doubled the time each write blocks the event loop.
    const adapter = new DataFile<StoreDocument>(path, {
      parse: (text) => JSON.parse(text) as StoreDocument,
      stringify: (data) => JSON.stringify(data),
    });
    const low = new Low<StoreDocument>(adapter, emptyDocument());
    try {
      await low.read();
    } catch (err) {
      throw new Error(
        `cannot read the store file ${path}: ${(err as Error).message}; it was left untouched: ` +
          'repair it or move it away to start with an empty store',
        { cause: err },
      );
    }
    return new StoreFile(path, toStoreState(low.data, path), low);
  }

  /**
   * Run `apply` against the latest state as one atomic step and resolve once it is on disk. `apply`
   * must be synchronous and must throw before modifying anything, so that a failure changes nothing.
   */
  async change<T>(apply: (state: StoreState) => ChangeOutcome<T>): Promise<T> {
    if (this.#closed) throw new Error(`the store ${this.path} is closed`);
    const { result, changed } = apply(this.state);
    if (changed) {
      this.#dirty = true;
      await this.#persist();
    }
    return result;
  }

  /** Resolve once every change applied so far is on disk; rejects when a write fails. */
  async flush(): Promise<void> {
    while (this.#dirty || this.#queued || this.#writing) {
      await (this.#queued ?? this.#writing ?? this.#persist());
    }
  }

  /** Flush, then refuse every later change. Reads keep working on the last state. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.flush();
  }

  #persist(): Promise<void> {
    this.#queued ??= this.#writeAfterCurrent();
    return this.#queued;
  }

  async #writeAfterCurrent(): Promise<void> {
    // Waiting for the write in flight is what coalesces: every change applied meanwhile rides along.
    // The await also runs when nothing is in flight, so changes made in the same tick share a write.
    await this.#writing?.catch(() => undefined);
    this.#queued = undefined;
    this.#dirty = false;
    this.#low.data = toStoreDocument(this.state);
    // lowdb's DataFile writes through steno: a temp file renamed over the old, so a crash at any
    // moment leaves either the previous or this complete file.
    const writing = this.#low.write();
    this.#writing = writing;
    try {
      await writing;
      this.#writes++;
    } catch (err) {
      // The state still holds these changes; the next write (or flush) tries again.
      this.#dirty = true;
      throw new Error(`cannot write the store file ${this.path}: ${(err as Error).message}`, { cause: err });
    } finally {
      if (this.#writing === writing) this.#writing = undefined;
    }
  }
}
