import { closeSync, constants, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import nativeFs from 'fs-native-extensions';

/** The lock file that says which process owns a data folder. */
export const LOCK_FILE_NAME = 'stackhooks.lock';

/** Held while a process owns the data folder; release it on the way out. */
export type DataDirLock = { release(): Promise<void> };

/** The data folder is locked by a live process (another server, or a key command in progress). */
export class DataDirInUseError extends Error {
  override readonly name = 'DataDirInUseError';

  constructor(
    readonly dataDir: string,
    /** The pid the holder wrote, when it could be read. */
    readonly holder: number | undefined,
  ) {
    super(
      `the data folder ${dataDir} is in use by ${holder === undefined ? 'another process' : `process ${holder}`}; ` +
        'stop that server or set STACKHOOKS_DATA_DIR (--data-dir) to another folder',
    );
  }
}

/**
 * Take the data folder for this process, so two servers never write one store. The lock is a
 * kernel lock on an open descriptor of `stackhooks.lock` (an open file description lock), which
 * the operating system releases when the process ends, however it ends: what the file says never
 * decides, so a stale file (a dead holder, a pid reused by another process after a container
 * restart, an empty file) never blocks a start. The pid is written into it for operators.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, LOCK_FILE_NAME);
  const fd = openSync(path, constants.O_RDWR | constants.O_CREAT, 0o600);
  if (!nativeFs.tryLock(fd)) {
    closeSync(fd);
    throw new DataDirInUseError(dataDir, lockHolder(dataDir));
  }
  try {
    ftruncateSync(fd, 0);
    writeSync(fd, String(process.pid), 0);
  } catch {
    // The pid is for operators only; the lock holds without it (say, on a full disk).
  }
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      // The file stays: removing it would let a process that opened it before take a lock on a
      // file no longer in the folder while another locks a new one.
      try {
        ftruncateSync(fd, 0);
      } catch {
        // Nothing to tidy on a full or read-only disk; closing releases the lock all the same.
      }
      closeSync(fd);
    },
  };
}

/** The pid written in the folder's lock file, if any (it may be stale: only the kernel lock counts). */
export function lockHolder(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(dataDir, LOCK_FILE_NAME), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
