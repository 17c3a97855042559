import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { writeAll } from '../../core/storage/write-all.js';

const ENTRY = 32;

/**
 * Height → canonical hash, on disk: entry `h` is the 32 bytes at `h × 32`, so a lookup is one
 * positional read and a full mainnet chain costs 32 bytes a block. All zeros means no block.
 */
export class CanonicalIndex {
  readonly #handle: FileHandle;

  private constructor(handle: FileHandle) {
    this.#handle = handle;
  }

  /** Open (creating when missing) the index file. */
  static async open(file: string): Promise<CanonicalIndex> {
    // Created in append mode, then reopened read-write, because positional writes are ignored in append mode.
    await (await open(file, 'a')).close();
    return new CanonicalIndex(await open(file, 'r+'));
  }

  /** The canonical hash at `height` as written, or undefined past the end of the file or for an empty entry. */
  async get(height: number): Promise<string | undefined> {
    const entry = Buffer.alloc(ENTRY);
    const { bytesRead } = await this.#handle.read(entry, 0, ENTRY, height * ENTRY);
    if (bytesRead < ENTRY || entry.every((byte) => byte === 0)) return undefined;
    return `0x${entry.toString('hex')}`;
  }

  /** The hashes at `from`..`to` as written, in one read; undefined past the end of the file or for an empty entry. */
  async getRange(from: number, to: number): Promise<(string | undefined)[]> {
    const count = to - from + 1;
    const entries = Buffer.alloc(count * ENTRY);
    const { bytesRead } = await this.#handle.read(entries, 0, entries.length, from * ENTRY);
    const hashes: (string | undefined)[] = [];
    for (let i = 0; i < count; i++) {
      const at = i * ENTRY;
      const empty = at + ENTRY > bytesRead || entries.subarray(at, at + ENTRY).every((byte) => byte === 0);
      hashes.push(empty ? undefined : `0x${entries.toString('hex', at, at + ENTRY)}`);
    }
    return hashes;
  }

  /**
   * Write `entries`, cut the file after `heights` entries (the tip's height + 1) and make it durable.
   * Contiguous heights go out as one write. Re-running it with the same arguments is harmless.
   */
  async write(entries: Iterable<[number, string]>, heights: number): Promise<void> {
    const sorted = [...entries].filter(([height]) => height < heights).sort(([a], [b]) => a - b);
    for (let start = 0; start < sorted.length;) {
      let end = start + 1;
      while (end < sorted.length && sorted[end][0] === sorted[end - 1][0] + 1) end++;
      const run = Buffer.alloc((end - start) * ENTRY);
      for (let i = start; i < end; i++) run.write(sorted[i][1].slice(2), (i - start) * ENTRY, 'hex');
      await writeAll(this.#handle, run, sorted[start][0] * ENTRY);
      start = end;
    }
    await this.#handle.truncate(heights * ENTRY);
    await this.#handle.sync();
  }

  /** Close the file. */
  async close(): Promise<void> {
    await this.#handle.close();
  }
}
