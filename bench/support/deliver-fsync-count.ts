// Counts the fsyncs the bench process makes through fs/promises file handles (the outbox journal,
// its compaction, the archive's checkpoints), and the wall time they take, by wrapping
// FileHandle.prototype.sync and .datasync in this process only. Wall time overlaps other work: it
// is how long the callers waited, not CPU spent.
import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Fsyncs since the last `reset`, and the milliseconds their callers waited. */
export type FsyncCount = { calls: number; ms: number };

type SyncFn = (this: unknown) => Promise<void>;

const counted: FsyncCount = { calls: 0, ms: 0 };
let installed = false;

/** Start counting (once per process). */
export async function installFsyncCount(): Promise<void> {
  if (installed) return;
  installed = true;
  const probe = join(tmpdir(), `stackhooks-bench-fsync-${process.pid}`);
  const handle = await open(probe, 'w');
  const proto = Object.getPrototypeOf(handle) as Record<'sync' | 'datasync', SyncFn>;
  await handle.close();
  await rm(probe, { force: true });
  for (const name of ['sync', 'datasync'] as const) {
    const original = proto[name];
    proto[name] = async function (this: unknown) {
      const start = performance.now();
      try {
        return await original.call(this);
      } finally {
        counted.calls++;
        counted.ms += performance.now() - start;
      }
    };
  }
}

/** Zero the count. */
export function resetFsyncCount(): void {
  counted.calls = 0;
  counted.ms = 0;
}

/** The count since the last reset. */
export function fsyncCount(): FsyncCount {
  return { ...counted };
}
