import { open, readFile, rename, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Adapter } from 'lowdb';
import { jsonPieces } from './sliced-json.js';

/** Pieces gathered before one file write: fewer calls, and still a turn of the event loop per write. */
const WRITE_BYTES = 1 << 20;

/**
 * A lowdb adapter for one compact JSON file, written durably: a temporary file fsynced, renamed
 * over the old one, then the folder fsynced. lowdb's own `DataFile` renames without an fsync, so
 * after a power loss an acknowledged write could be missing (a process crash never loses it).
 * Compact JSON, because pretty-printing doubled the time each write blocks the event loop, and
 * serialized in slices (`jsonPieces`) written as they come, so a large document never holds the
 * event loop for the whole of its serialization (nor needs its whole text in memory at once).
 * Writes of one file must not overlap (the store coalesces them), since they share the temporary.
 * The file holds consumer secrets and key hashes, so it is readable by its owner only (0600).
 */
export class DurableJsonFile<T> implements Adapter<T> {
  readonly #temporary: string;

  constructor(readonly path: string) {
    this.#temporary = `${path}.tmp`;
  }

  /** The file's content, or null when there is no file yet. */
  async read(): Promise<T | null> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    return JSON.parse(text) as T;
  }

  /** Replace the file with `data`; resolves once the new content and its name are on disk. */
  async write(data: T): Promise<void> {
    // The temporary is created anew each time (the last one was renamed away), so it gets this mode.
    const handle = await open(this.#temporary, 'w', 0o600);
    try {
      let gathered: string[] = [];
      let length = 0;
      for (const piece of jsonPieces(data)) {
        gathered.push(piece);
        length += piece.length;
        if (length < WRITE_BYTES) continue;
        await writeWhole(handle, Buffer.from(gathered.join('')));
        gathered = [];
        length = 0;
      }
      await writeWhole(handle, Buffer.from(gathered.join('')));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(this.#temporary, this.path);
    await syncFolderOf(this.path);
  }
}

/** Write all of `bytes` at the handle's position, going on after a short write as write(2) allows. */
export async function writeWhole(handle: FileHandle, bytes: Buffer): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
    offset += bytesWritten;
  }
}

/** Fsync the folder holding `path`, so a rename into it survives a power loss. */
export async function syncFolderOf(path: string): Promise<void> {
  const folder = await open(dirname(path), 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}
