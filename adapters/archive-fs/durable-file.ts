import { open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Make the entries of a directory (a created, renamed or removed file) durable. */
export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Replace `file` with `data` so that a crash at any moment leaves the old or the new content, whole. */
export async function writeFileDurably(file: string, data: string | Buffer): Promise<void> {
  const temporary = `${file}.tmp`;
  const handle = await open(temporary, 'w');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
  await syncDirectory(dirname(file));
}
