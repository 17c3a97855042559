import {
  diskWriteFailure,
  isFileSystemError,
  type DiskSpaceReport,
} from '../../core/storage/write-failure.js';

const STORE = 'store file';

/**
 * Writes of one file that never overlap: whatever is marked while a write is in flight is carried by
 * the next single write, and every caller's promise settles once a write that carries its change has
 * finished. `write` must take its content from the live state when it starts.
 */
export class CoalescedWrites {
  /** The write that will carry every change marked since the last write began. */
  #queued: Promise<void> | undefined;
  /** The file write in flight. */
  #writing: Promise<void> | undefined;
  /** Changes are marked that no finished or started write carries. */
  #dirty = false;
  #writes = 0;
  #failing = false;

  constructor(
    private readonly write: () => Promise<void>,
    /** The file's path, for messages. */
    private readonly path: string,
    /** Told of a full disk and of the next write that succeeds. */
    private readonly space?: DiskSpaceReport,
  ) {}

  /** How many writes have finished; far fewer than changes when writes coalesce. */
  get writes(): number {
    return this.#writes;
  }

  /** Whether the last write failed (its changes wait for the next one). */
  get failing(): boolean {
    return this.#failing;
  }

  /** Mark a change applied to the state and resolve once a write that carries it is on disk. */
  persist(): Promise<void> {
    this.#dirty = true;
    this.#queued ??= this.#writeAfterCurrent();
    return this.#queued;
  }

  /** Resolve once every change marked so far is on disk; rejects when a write fails. */
  async flush(): Promise<void> {
    while (this.#dirty || this.#queued || this.#writing) {
      await (this.#queued ?? this.#writing ?? this.persist());
    }
  }

  async #writeAfterCurrent(): Promise<void> {
    // Waiting for the write in flight is what coalesces: every change applied meanwhile rides along.
    // The await also runs when nothing is in flight, so changes made in the same tick share a write.
    await this.#writing?.catch(() => undefined);
    this.#queued = undefined;
    this.#dirty = false;
    const writing = this.write();
    this.#writing = writing;
    try {
      await writing;
      this.#writes++;
      this.#failing = false;
      this.space?.wrote(STORE);
    } catch (err) {
      // The state still holds these changes; the next write (or flush) tries again. A disk that
      // refused the write (full, failing) is a 503 for the caller, who may try again later.
      this.#dirty = true;
      this.#failing = true;
      if (isFileSystemError(err)) throw diskWriteFailure(err, STORE, this.space);
      throw new Error(`cannot write the store file ${this.path}: ${(err as Error).message}`, { cause: err });
    } finally {
      if (this.#writing === writing) this.#writing = undefined;
    }
  }
}
