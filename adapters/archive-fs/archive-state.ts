import { readFile } from 'node:fs/promises';
import { Low } from 'lowdb';
import type { Adapter } from 'lowdb';
import type { BlockHeader } from '../../core/chain/block-header.js';
import type { ChainGap } from '../../core/chain/chain-gap.js';
import { writeFileDurably } from './durable-file.js';
import type { LogPosition } from './record-log.js';

/** The on-disk format this code writes; an archive in any other is refused rather than misread. */
export const ARCHIVE_FORMAT = 1;

/** What the index files reflect: every record before `logEnd`, and the chain state after them. */
export type ArchiveCheckpoint = {
  logEnd: LogPosition;
  tip: BlockHeader | null;
  blocks: number;
  /** Held orphans, oldest first. */
  orphans: BlockHeader[];
  /** Open gaps, lowest first (absent in states written before gaps were kept). */
  gaps?: ChainGap[];
  /** Blocks archived with transactions that could not be decoded. */
  unreadableBlocks?: number;
  /** When the last new block was put (ms since the epoch), or null. */
  lastReceivedAt?: number | null;
};

/** A checkpoint whose index writes are being made: redone in full if the process dies midway. */
export type PendingCheckpoint = ArchiveCheckpoint & {
  /** The changed index slots, concatenated in their 80-byte form, base64. */
  slots: string;
  /** The changed canonical entries as [height, hash]. */
  canonical: [number, string][];
};

/** The archive's small state, kept by lowdb; everything large lives in the log and the index files. */
export type ArchiveState = {
  format: number;
  checkpoint: ArchiveCheckpoint;
  pending: PendingCheckpoint | null;
};

/** The state of an archive that has nothing yet. */
export function emptyArchiveState(): ArchiveState {
  return {
    format: ARCHIVE_FORMAT,
    checkpoint: { logEnd: { segment: 0, offset: 0 }, tip: null, blocks: 0, orphans: [] },
    pending: null,
  };
}

/**
 * A lowdb adapter that fsyncs: lowdb's own JSONFile renames a temporary file without syncing it, which
 * survives a process crash but not a power cut, and the state is the archive's commit point.
 */
class DurableJsonFile<T> implements Adapter<T> {
  readonly #file: string;

  constructor(file: string) {
    this.#file = file;
  }

  async read(): Promise<T | null> {
    try {
      return JSON.parse(await readFile(this.#file, 'utf8')) as T;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async write(data: T): Promise<void> {
    await writeFileDurably(this.#file, JSON.stringify(data));
  }
}

/** Open the state file (a missing one is an empty archive); an unknown format is refused. */
export async function openArchiveState(file: string): Promise<Low<ArchiveState>> {
  const low = new Low<ArchiveState>(new DurableJsonFile<ArchiveState>(file), emptyArchiveState());
  await low.read();
  if (low.data.format !== ARCHIVE_FORMAT) {
    throw new Error(
      `the block archive state ${file} has format ${low.data.format}; this version reads ${ARCHIVE_FORMAT}`,
    );
  }
  return low;
}
