import { open, readFile, rename, type FileHandle } from 'node:fs/promises';
import { syncFolderOf, writeWhole } from './durable-json-file.js';
import { readJournal, type ReadJournal } from './journal-entry.js';

/**
 * Open a file of JSON lines appended and fsynced a batch at a time (created when missing, 0600),
 * for appending after its whole lines: a torn tail is cut off, so later appends start on a line of
 * their own. Returns the handle, the lines `parse` read (oldest first) and their bytes. A file
 * damaged elsewhere than at its tail is refused and left untouched, the error naming it as `what`.
 */
export async function openLineFile<E>(
  path: string,
  parse: (line: Buffer) => E | undefined,
  what: string,
): Promise<ReadJournal<E> & { handle: FileHandle }> {
  const bytes = await readFile(path).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return Buffer.alloc(0);
    throw err;
  });
  let read;
  try {
    read = readJournal(bytes, parse);
  } catch (err) {
    throw new Error(
      `${what} ${path} is damaged (${(err as Error).message}); it was left untouched: ` +
        'repair it or move it away to start from the main file alone',
      { cause: err },
    );
  }
  const handle = await open(path, 'a', 0o600);
  if (read.wholeBytes < bytes.length) {
    // The tail was never acknowledged; cut it so later appends start on a line of their own.
    await handle.truncate(read.wholeBytes);
    await handle.sync();
  }
  return { ...read, handle };
}

/**
 * Replace the file at `path` with `bytes`, durably (written aside, fsynced, renamed, the folder
 * fsynced), and return a handle appending to the new file; `current`, the old one's, is closed.
 */
export async function replaceLineFile(path: string, bytes: Buffer, current: FileHandle): Promise<FileHandle> {
  const temporary = `${path}.tmp`;
  const handle = await open(temporary, 'w', 0o600);
  try {
    await writeWhole(handle, bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, path);
  await syncFolderOf(path);
  const appending = await open(path, 'a', 0o600);
  await current.close().catch(() => undefined);
  return appending;
}
