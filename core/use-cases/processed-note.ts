/**
 * The note block processing keeps with the event log's processed mark: the tip the chain sink has
 * seen (to publish again a change a stop cut off) and the last `/new_block` entry processed (when
 * the node posted it: the service's last block, read by every process for readiness and lag).
 */
export type ProcessedNote = {
  tip: string | null;
  /** Absent in notes written before it was kept, and until a block entry is processed. */
  block?: { id: number; received_at: number };
};

/** The note as stored. */
export function writeProcessedNote(note: ProcessedNote): string {
  return JSON.stringify(note);
}

/** The note read back; undefined when there is none or it is not one of ours. */
export function readProcessedNote(raw: string | undefined): ProcessedNote | undefined {
  if (raw === undefined) return undefined;
  try {
    const note = JSON.parse(raw) as Partial<ProcessedNote> | null;
    if (!note || typeof note !== 'object' || !('tip' in note)) return undefined;
    const block = note.block;
    const valid = block && typeof block.id === 'number' && typeof block.received_at === 'number';
    return {
      tip: note.tip ?? null,
      ...(valid && { block: { id: block.id, received_at: block.received_at } }),
    };
  } catch {
    return undefined;
  }
}
