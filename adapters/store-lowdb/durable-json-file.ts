import { open, readFile, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Adapter } from 'lowdb';

/**
 * A lowdb adapter for one compact JSON file, written durably: a temporary file fsynced, renamed
 * over the old one, then the folder fsynced. lowdb's own `DataFile` renames without an fsync, so
 * after a power loss an acknowledged write could be missing (a process crash never loses it).
 * Compact JSON, because pretty-printing doubled the time each write blocks the event loop.
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
      await handle.writeFile(JSON.stringify(data));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(this.#temporary, this.path);
    const folder = await open(dirname(this.path), 'r');
    try {
      await folder.sync();
    } finally {
      await folder.close();
    }
  }
}
