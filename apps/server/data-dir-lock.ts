import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** The lock file that says which process owns a data folder. */
export const LOCK_FILE_NAME = 'stackhooks.lock';

/** Held while a process owns the data folder; release it on the way out. */
export type DataDirLock = { release(): Promise<void> };

/**
 * Take the data folder for this process, so two servers never write one store. A lock left by a
 * process that no longer runs (killed with SIGKILL, say) is taken over.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  await mkdir(dataDir, { recursive: true });
  const path = join(dataDir, LOCK_FILE_NAME);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(path, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return { release: () => rm(path, { force: true }) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = await lockHolder(dataDir);
      if (holder !== undefined && holder !== process.pid && isRunning(holder)) {
        throw new Error(
          `the data folder ${dataDir} is in use by process ${holder}; stop it or choose another folder`,
          {
            cause: err,
          },
        );
      }
      await rm(path, { force: true });
    }
  }
  throw new Error(`could not take the lock ${path}`);
}

/** The pid written in the folder's lock file, if any. */
export async function lockHolder(dataDir: string): Promise<number | undefined> {
  try {
    const pid = Number((await readFile(join(dataDir, LOCK_FILE_NAME), 'utf8')).trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a process with this pid exists. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
