import { open } from 'node:fs/promises';

/** Fsync a folder: a file's new name in it is durable only once the folder is. */
export async function syncFolder(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
