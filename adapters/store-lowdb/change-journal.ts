import type { FileHandle } from 'node:fs/promises';
import type { DiskSpaceReport } from '../../core/storage/write-failure.js';
import { CoalescedWrites } from './coalesced-writes.js';
import { writeWhole } from './durable-json-file.js';
import { parseEntry, type JournalEntry } from './journal-entry.js';
import { openLineFile, replaceLineFile } from './line-file.js';

/** The change journal's name inside the data folder, beside the main file. */
export const CHANGE_JOURNAL_FILE_NAME = 'stackhooks-journal.ndjson';

/** One entry's line, with its number. */
type Line = { seq: number; text: string };

/**
 * The change journal: every hook and account change, one JSON line each, appended and fsynced
 * before the change is acknowledged, so a change costs its own size on disk whatever the store
 * holds. Appends coalesce: the lines of every change made while one append is in flight go in the
 * next single append and fsync. Once the main file holds every change up to a number (`fold`), the
 * journal is rewritten with the later lines only; until then, replay at open skips the lines the
 * main file already holds, so a crash at any point between an append and a fold loses nothing.
 */
export class ChangeJournal {
  #handle: FileHandle;
  #seq: number;
  /** The main file holds every change up to this number. */
  #folded: number;
  /** Lines on disk (or being appended) that the main file may not hold yet. */
  #kept: Line[];
  /** Lines of acknowledged-to-be changes not yet handed to an append. */
  #pending: Line[] = [];
  /** Bytes of whole lines on disk: where a failed append is cut back to. */
  #size: number;
  /** Characters of the lines in `#kept` and `#pending`. */
  #bytes: number;
  /** Set when the file must be written anew: after a fold, or after a failed append could not be cut back. */
  #rewrite = false;
  readonly #writes: CoalescedWrites;

  private constructor(
    readonly path: string,
    handle: FileHandle,
    state: { seq: number; folded: number; kept: Line[]; size: number },
    space: DiskSpaceReport | undefined,
  ) {
    this.#handle = handle;
    this.#seq = state.seq;
    this.#folded = state.folded;
    this.#kept = state.kept;
    this.#size = state.size;
    this.#bytes = lengthOf(state.kept);
    this.#writes = new CoalescedWrites(() => this.#write(), path, space);
  }

  /**
   * Open the journal at `path` (created when missing) for a main file that holds every change up to
   * `folded`, cutting off a torn tail. Returns it with the entries to replay, oldest first. A journal
   * damaged elsewhere than at its tail is refused and left untouched.
   */
  static async open(
    path: string,
    folded: number,
    space?: DiskSpaceReport,
  ): Promise<{ journal: ChangeJournal; entries: JournalEntry[] }> {
    const { handle, ...read } = await openLineFile(path, parseEntry, 'the change journal');
    const entries = read.entries.filter((entry) => entry.seq > folded);
    const seq = read.entries.reduce((last, entry) => Math.max(last, entry.seq), folded);
    const kept = entries.map((entry) => ({ seq: entry.seq, text: `${JSON.stringify(entry)}\n` }));
    const journal = new ChangeJournal(path, handle, { seq, folded, kept, size: read.wholeBytes }, space);
    return { journal, entries };
  }

  /** The number of the last change. */
  get seq(): number {
    return this.#seq;
  }

  /** How many appends have finished; far fewer than changes when appends coalesce. */
  get writes(): number {
    return this.#writes.writes;
  }

  /** Whether the last append failed (its lines wait for the next one). */
  get failing(): boolean {
    return this.#writes.failing;
  }

  /** Bytes of lines the main file may not hold yet, on disk or waiting. */
  get unfoldedBytes(): number {
    return this.#bytes;
  }

  /** The number the next change will carry. */
  next(): number {
    return this.#seq + 1;
  }

  /** Append a change numbered `next()`; resolves once its line is on disk. */
  append(entry: JournalEntry): Promise<void> {
    this.#seq = entry.seq;
    // Serialized now: the objects are the state's, and a later change replaces them.
    const text = `${JSON.stringify(entry)}\n`;
    this.#pending.push({ seq: entry.seq, text });
    this.#bytes += text.length;
    return this.#writes.persist();
  }

  /** The main file now holds every change up to `seq`: rewrite the journal without those lines. */
  fold(seq: number): Promise<void> {
    this.#folded = Math.max(this.#folded, seq);
    this.#rewrite = true;
    return this.#writes.persist();
  }

  /** Resolve once every change appended so far is on disk; rejects when an append fails. */
  flush(): Promise<void> {
    return this.#writes.flush();
  }

  /** Flush, then close the file. */
  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      await this.#handle.close();
    }
  }

  async #write(): Promise<void> {
    const lines = this.#pending;
    this.#pending = [];
    const rewrite = this.#rewrite;
    this.#rewrite = false;
    try {
      if (rewrite) await this.#writeAnew(lines);
      else if (lines.length > 0) {
        const bytes = Buffer.from(lines.map((line) => line.text).join(''));
        await writeWhole(this.#handle, bytes);
        await this.#handle.datasync();
        // A journal removed under the process (its folder deleted) would take appends that no later
        // open can read: refused, and the next write makes the file anew.
        if ((await this.#handle.stat()).nlink === 0) throw new JournalRemovedError(this.path);
        this.#size += bytes.length;
        this.#kept.push(...lines);
      }
    } catch (err) {
      this.#pending = [...lines, ...this.#pending];
      // A partial append is cut back so no torn line hides later ones; failing that, or when the
      // rewrite itself failed, the next write makes the file anew from what is known to be whole.
      this.#rewrite =
        rewrite ||
        err instanceof JournalRemovedError ||
        (await this.#handle.truncate(this.#size).then(
          () => false,
          () => true,
        ));
      throw err;
    }
  }

  /** Replace the file with the lines the main file does not hold, then `lines`, durably. */
  async #writeAnew(lines: Line[]): Promise<void> {
    const kept = [...this.#kept.filter((line) => line.seq > this.#folded), ...lines];
    const bytes = Buffer.from(kept.map((line) => line.text).join(''));
    this.#handle = await replaceLineFile(this.path, bytes, this.#handle);
    this.#kept = kept;
    this.#size = bytes.length;
    this.#bytes = lengthOf(kept) + lengthOf(this.#pending);
  }
}

/** A journal's file was removed under the process: appends to it would be lost. */
export class JournalRemovedError extends Error {
  readonly code = 'ENOENT';
  readonly syscall = 'write';

  constructor(readonly path: string) {
    super(`ENOENT: the journal ${path} was removed`);
  }
}

function lengthOf(lines: readonly Line[]): number {
  let length = 0;
  for (const line of lines) length += line.text.length;
  return length;
}
