// A checkpoint's redo record: written to the index files, finished after a crash, committed.
import { join } from 'node:path';
import type { Low } from 'lowdb';
import type { ArchiveState, PendingCheckpoint } from './archive-state.js';
import { CanonicalIndex } from './canonical-index.js';
import { HashIndex, SLOT_BYTES, decodeSlot } from './hash-index.js';
import type { IndexSlot } from './hash-index.js';

/** Write a checkpoint's index changes; safe to repeat after a crash because every write is idempotent. */
export async function writePending(
  files: { index: HashIndex; canonical: CanonicalIndex },
  pending: PendingCheckpoint,
): Promise<void> {
  const slots = Buffer.from(pending.slots, 'base64');
  const decoded: IndexSlot[] = [];
  for (let at = 0; at < slots.length; at += SLOT_BYTES) decoded.push(decodeSlot(slots, at) as IndexSlot);
  await files.index.putMany(decoded);
  await files.canonical.write(pending.canonical, pending.tip === null ? 0 : pending.tip.height + 1);
}

/** Finish a checkpoint that a crash interrupted: its index writes again, then its state. */
export async function redo(dir: string, state: Low<ArchiveState>, pending: PendingCheckpoint): Promise<void> {
  const index = await HashIndex.open(join(dir, 'index'));
  const canonical = await CanonicalIndex.open(join(dir, 'canonical.idx'));
  try {
    await writePending({ index, canonical }, pending);
  } finally {
    await index.close();
    await canonical.close();
  }
  await commit(state, pending);
}

/** Make the pending checkpoint the current one and clear it, durably. */
export async function commit(state: Low<ArchiveState>, pending: PendingCheckpoint): Promise<void> {
  const { slots: _slots, canonical: _canonical, ...checkpoint } = pending;
  state.data = { format: state.data.format, checkpoint, pending: null };
  await state.write();
}
