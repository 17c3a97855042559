import { open } from 'node:fs/promises';

/** Fsync a folder: a rename or a new file in it is durable only once the folder that names it is. */
export async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
