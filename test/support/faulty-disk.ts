import fs from 'node:fs';
import { open, rm, type FileHandle } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTempDir } from './temp-dir.js';

type Fault = { code: string; countdown: number };
type WriteArgs = [buffer: Buffer, offset?: number, length?: number, position?: number | null];

const errno = (code: string, syscall: string): NodeJS.ErrnoException =>
  Object.assign(new Error(`${code}: injected fault, ${syscall}`), { code, syscall });

/**
 * A fault-injecting file layer for tests: while installed, every file write of the process (the
 * `FileHandle` methods, `fs.writeSync`, `fs.promises.writeFile`; syncs by `FileHandle` or `fs.fsyncSync`/`fs.fdatasyncSync`) draws on `room`, the bytes the
 * disk still takes. A write larger than the room writes what fits and reports the short count, as
 * write(2) does on a full tmpfs, and the next one fails with ENOSPC. `failWrite` and `failSync` make
 * the nth write or fsync from now fail with a code of choice (EIO); `failTruncate` the next cuts.
 */
export class FaultyDisk {
  /** Bytes the disk still takes (Infinity: no limit). */
  room = Infinity;
  /** Write calls that reached the disk, for choosing fault points. */
  writes = 0;
  private writeFault: Fault | undefined;
  private syncFault: Fault | undefined;
  private truncateFaults = 0;
  private readonly restore: (() => void)[] = [];

  /** Make the `nth` write call from now (1: the next) fail with `code`. */
  failWrite(code: string, nth = 1): void {
    this.writeFault = { code, countdown: nth };
  }

  /** Make the `nth` fsync or fdatasync from now fail with `code`. */
  failSync(code: string, nth = 1): void {
    this.syncFault = { code, countdown: nth };
  }

  /** Make the next `count` truncations fail with EIO. */
  failTruncate(count = 1): void {
    this.truncateFaults = count;
  }

  /** Give the disk room again and drop pending faults. */
  heal(): void {
    this.room = Infinity;
    this.writeFault = undefined;
    this.syncFault = undefined;
    this.truncateFaults = 0;
  }

  /** Patch the file functions of this process; `uninstall` puts them back. */
  async install(): Promise<void> {
    const probe = await open(join(tmpdir(), `stackhooks-faulty-${process.pid}`), 'w');
    const proto = Object.getPrototypeOf(probe) as FileHandle;
    await probe.close();
    await fs.promises.rm(join(tmpdir(), `stackhooks-faulty-${process.pid}`), { force: true });
    const allow = (length: number) => this.allow(length, 'write');
    const checkSync = () => this.checkSync();
    const checkTruncate = () => this.checkTruncate();
    const write = proto.write as unknown as (
      this: FileHandle,
      ...args: WriteArgs
    ) => Promise<{ bytesWritten: number }>;
    this.patch(proto, 'write', async function (this: FileHandle, ...args: WriteArgs) {
      const [buffer, offset = 0, length = buffer.length - offset, position = null] = args;
      if (typeof buffer === 'string') return write.apply(this, args);
      return write.call(this, buffer, offset, allow(length), position);
    });
    const writeFile = proto.writeFile as (this: FileHandle, data: string | Buffer) => Promise<void>;
    this.patch(proto, 'writeFile', async function (this: FileHandle, data: string | Buffer) {
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      const allowed = allow(bytes.length);
      await writeFile.call(this, bytes.subarray(0, allowed));
      if (allowed < bytes.length) throw errno('ENOSPC', 'write');
    });
    for (const name of ['sync', 'datasync'] as const) {
      const original = proto[name] as (this: FileHandle) => Promise<void>;
      this.patch(proto, name, async function (this: FileHandle) {
        checkSync();
        return original.call(this);
      });
    }
    const truncate = proto.truncate as (this: FileHandle, length?: number) => Promise<void>;
    this.patch(proto, 'truncate', async function (this: FileHandle, length?: number) {
      checkTruncate();
      return truncate.call(this, length);
    });
    for (const name of ['fsyncSync', 'fdatasyncSync'] as const) {
      const original = fs[name];
      this.patch(fs, name, function (fd: number) {
        checkSync();
        return original(fd);
      });
    }
    const writeSync = fs.writeSync as (fd: number, ...args: WriteArgs) => number;
    this.patch(fs, 'writeSync', function (fd: number, ...args: WriteArgs) {
      const [buffer, offset = 0, length = buffer.length - offset, position = null] = args;
      if (typeof buffer === 'string') return writeSync(fd, ...args);
      return writeSync(fd, buffer, offset, allow(length), position);
    });
    const promisesWriteFile = fs.promises.writeFile;
    this.patch(fs.promises, 'writeFile', async (path: string, data: string | Buffer, options?: unknown) => {
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      const allowed = allow(bytes.length);
      await promisesWriteFile(path, bytes.subarray(0, allowed), options as fs.WriteFileOptions);
      if (allowed < bytes.length) throw errno('ENOSPC', 'write');
    });
    syncBuiltinESMExports();
  }

  /** Put every patched function back. */
  uninstall(): void {
    for (const undo of this.restore.splice(0).reverse()) undo();
    syncBuiltinESMExports();
  }

  // How many of `length` bytes a write may write now; throws the fault or ENOSPC when it may write none.
  private allow(length: number, syscall: string): number {
    this.writes++;
    if (this.writeFault && --this.writeFault.countdown <= 0) {
      const { code } = this.writeFault;
      this.writeFault = undefined;
      throw errno(code, syscall);
    }
    if (length === 0) return 0;
    if (this.room <= 0) throw errno('ENOSPC', syscall);
    const allowed = Math.min(length, this.room);
    this.room -= allowed;
    return allowed;
  }

  private checkTruncate(): void {
    if (this.truncateFaults > 0) {
      this.truncateFaults--;
      throw errno('EIO', 'ftruncate');
    }
  }

  private checkSync(): void {
    if (this.syncFault && --this.syncFault.countdown <= 0) {
      const { code } = this.syncFault;
      this.syncFault = undefined;
      throw errno(code, 'fsync');
    }
  }

  private patch<T extends object>(target: T, name: string, replacement: unknown): void {
    const original = (target as Record<string, unknown>)[name];
    (target as Record<string, unknown>)[name] = replacement;
    this.restore.push(() => {
      (target as Record<string, unknown>)[name] = original;
    });
  }
}

/** A named way to make the disk fail. */
export type DiskFault = { name: string; inject: (disk: FaultyDisk) => void };

/** Full disks with each of `rooms` bytes left, then EIO at each of the `writes`-th writes and `syncs`-th fsyncs. */
export function diskFaults(options: { rooms?: number[]; writes?: number[]; syncs?: number[] }): DiskFault[] {
  return [
    ...(options.rooms ?? []).map((room) => ({
      name: `a full disk with ${room} bytes of room`,
      inject: (disk: FaultyDisk) => {
        disk.room = room;
      },
    })),
    ...(options.writes ?? []).map((nth) => ({
      name: `EIO at write ${nth}`,
      inject: (disk: FaultyDisk) => disk.failWrite('EIO', nth),
    })),
    ...(options.syncs ?? []).map((nth) => ({
      name: `EIO at fsync ${nth}`,
      inject: (disk: FaultyDisk) => disk.failSync('EIO', nth),
    })),
  ];
}

/** Around each test of the calling suite: a fresh folder, and a `FaultyDisk` installed (healed and removed after). */
export function withFaultyDisk(prefix: string): { disk: FaultyDisk; dir: () => string } {
  const disk = new FaultyDisk();
  let dir = '';
  beforeEach(async () => {
    dir = await makeTempDir(prefix);
    await disk.install();
  });
  afterEach(async () => {
    disk.heal();
    disk.uninstall();
    await rm(dir, { recursive: true, force: true });
  });
  return { disk, dir: () => dir };
}
