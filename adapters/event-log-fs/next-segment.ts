import { open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { writeAll } from '../../core/storage/write-all.js';

/** The file the next segment is written in ahead of need; its name never matches a segment's. */
const FILE = 'next-segment.zeros';
/** Zeros are written and synced this much at a time, with a pause between, so the disk stays free. */
const CHUNK_BYTES = 1024 * 1024;
const PAUSE_MS = 20;
/** After a failed fill (a full disk), the next try waits this long. */
const RETRY_MS = 60_000;

/**
 * The next segment of the event log, written full of zeros and synced before any entry goes in.
 * An append that overwrites such blocks changes neither the file's size nor its blocks, so its
 * `fdatasync` has no allocation to wait for in a journal commit that other files' writes, renames
 * and freed blocks share. Filling runs in the background, paced, and is only ever
 * a saving: when no segment is ready the log begins an empty one, as it would without this.
 */
export class NextSegment {
  private state: 'idle' | 'filling' | 'ready' = 'idle';
  private filling: Promise<void> | undefined;
  private stopping = false;
  private retryAt = 0;
  private readonly path: string;

  constructor(
    dir: string,
    private readonly bytes: number,
  ) {
    this.path = join(dir, FILE);
  }

  /** Remove a file a writer left half-filled or unused (a crash, a closed writer). */
  static async clear(dir: string): Promise<void> {
    await rm(join(dir, FILE), { force: true });
  }

  /** Whether a filled segment is waiting to be taken. */
  get ready(): boolean {
    return this.state === 'ready';
  }

  /** Begin filling in the background, unless it is filling, ready, stopped or waiting to retry. */
  begin(): void {
    if (this.state !== 'idle' || this.stopping || Date.now() < this.retryAt) return;
    this.state = 'filling';
    this.filling = this.fill().then(
      () => {
        this.state = this.stopping ? 'idle' : 'ready';
      },
      async () => {
        this.state = 'idle';
        this.retryAt = Date.now() + RETRY_MS;
        await rm(this.path, { force: true }).catch(() => undefined);
      },
    );
  }

  /**
   * Move the filled file to `target` when one is ready (true); false leaves `target` to be made
   * empty. The caller syncs the folder before it acknowledges anything written there.
   */
  async take(target: string): Promise<boolean> {
    if (this.state !== 'ready') return false;
    this.state = 'idle';
    await rename(this.path, target);
    return true;
  }

  /** Stop filling for good and wait for the fill under way; what it left is cleared by the next writer. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.filling;
  }

  private async fill(): Promise<void> {
    const zeros = Buffer.alloc(Math.min(CHUNK_BYTES, this.bytes));
    const handle = await open(this.path, 'w');
    try {
      for (let at = 0; at < this.bytes && !this.stopping; at += zeros.length) {
        await writeAll(handle, zeros.subarray(0, Math.min(zeros.length, this.bytes - at)), at);
        // Synced chunk by chunk: one large flush at the end would hold the disk for the appends' syncs.
        await handle.datasync();
        await sleep(PAUSE_MS);
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
}
