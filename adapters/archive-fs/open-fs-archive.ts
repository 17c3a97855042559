import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { emptyArchiveState, openArchiveState } from './archive-state.js';
import { CanonicalIndex } from './canonical-index.js';
import { redo } from './checkpoint.js';
import { FsBlockArchive, closeArchiveFiles } from './fs-archive.js';
import type { FsArchive, FsArchiveOptions, FsArchiveSettings } from './fs-archive.js';
import { HashIndex } from './hash-index.js';
import { QuarantineFolder } from './quarantine-folder.js';
import { RecordLog } from './record-log.js';

/**
 * Open the block archive in `dir`, creating it when missing, and recover from any crash: an
 * interrupted checkpoint is redone, records written after the last checkpoint are indexed again and
 * a torn tail is cut off. A log shorter than the last checkpoint (lost or damaged data) is re-indexed
 * from its first record.
 */
export async function openFsArchive(dir: string, options: FsArchiveOptions = {}): Promise<FsArchive> {
  const settings: FsArchiveSettings = {
    segmentBytes: options.segmentBytes ?? 256 * 1024 * 1024,
    checkpointEvery: options.checkpointEvery ?? 16_384,
    checkpointAfterMs: options.checkpointAfterMs ?? 1000,
    rangeReadBytes: options.rangeReadBytes ?? 1024 * 1024,
    orphans: options.orphans ?? {},
    space: options.space,
  };
  await mkdir(dir, { recursive: true });
  const state = await openArchiveState(join(dir, 'state.json'));
  const log = await RecordLog.open(join(dir, 'segments'), settings.segmentBytes);
  if (state.data.pending !== null) await redo(dir, state, state.data.pending);
  const { logEnd } = state.data.checkpoint;
  const lost = ((await log.segmentSize(logEnd.segment)) ?? -1) < logEnd.offset;
  if (lost || (logEnd.segment === 0 && logEnd.offset === 0)) {
    // Index files that describe no checkpointed record (a lost state file, or records that are gone)
    // are dropped first and the state after, so that a crash here finds the same case next time.
    await rm(join(dir, 'index'), { recursive: true, force: true });
    await rm(join(dir, 'canonical.idx'), { force: true });
    state.data = emptyArchiveState();
    await state.write();
  }
  const index = await HashIndex.open(join(dir, 'index'));
  const canonical = await CanonicalIndex.open(join(dir, 'canonical.idx'));
  const quarantine = await QuarantineFolder.open(join(dir, 'quarantine'));
  const archive = new FsBlockArchive({ state, log, index, canonical, quarantine }, settings);
  try {
    await archive.replayLog(state.data.checkpoint.logEnd);
  } catch (err) {
    await closeArchiveFiles({ log, index, canonical });
    throw err;
  }
  return archive;
}
