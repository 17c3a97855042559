import { open, readdir, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A file renamed aside for removal carries this suffix, so no listing of the folder names it again. */
export const REMOVING_SUFFIX = '.removing';

/** How a file is taken apart: bytes cut off its end at a time, and the pause after each cut. */
export type RemovalPace = { cutBytes: number; pauseMs: number };

/**
 * Eight megabytes, then a pause: on a disk that discards freed blocks (ext4 mounted with
 * `discard`, most cloud volumes), freeing a 200 MiB file at once held every other fsync on the
 * disk for 100–130 ms, the observer's among them; cut this way, none waited over 45 ms.
 */
export const DEFAULT_REMOVAL_PACE: RemovalPace = { cutBytes: 8 * 1024 * 1024, pauseMs: 20 };

/**
 * Removes the outbox's large files (old journal generations, payload segments nothing names) in
 * the background, one at a time and a slice at a time: each is renamed aside at once, so it is gone
 * from the folder's listing, then cut from its end in steps, each made durable before the next,
 * and unlinked when small. A crash midway leaves an aside file, removed at the next open.
 */
export class FileRemovals {
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly pace: RemovalPace = DEFAULT_REMOVAL_PACE) {}

  /** Rename `path` aside now (throws as `rename` would) and remove it in the background. */
  async remove(path: string): Promise<void> {
    const aside = `${path}${REMOVING_SUFFIX}`;
    await rename(path, aside);
    this.enqueue(aside);
  }

  /** Remove, in the background, the aside files a crash left in `dir`. */
  async removeLeftovers(dir: string): Promise<void> {
    for (const name of await readdir(dir)) if (name.endsWith(REMOVING_SUFFIX)) this.enqueue(join(dir, name));
  }

  /** Resolves once every removal asked for so far is done (or has failed and been warned of). */
  async settled(): Promise<void> {
    let seen: Promise<void>;
    do {
      seen = this.queue;
      await seen;
    } while (seen !== this.queue);
  }

  private enqueue(path: string): void {
    this.queue = this.queue.then(() =>
      removeInSteps(path, this.pace).catch((err: unknown) => {
        // The file stays aside and is removed at the next open; the outbox's data is not at stake.
        process.emitWarning(
          `stackhooks: could not remove ${path} (${String(err)}); it is retried at the next start`,
        );
      }),
    );
  }
}

/** Cut `path` from its end `pace.cutBytes` at a time, syncing and pausing after each cut, then unlink it. */
export async function removeInSteps(path: string, pace: RemovalPace): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    let size = (await handle.stat()).size;
    while (size > pace.cutBytes) {
      size -= pace.cutBytes;
      await handle.truncate(size);
      // The sync ends the file system's transaction here, so each frees only one cut's blocks.
      await handle.datasync();
      await sleep(pace.pauseMs);
    }
  } finally {
    await handle.close();
  }
  await unlink(path);
}
