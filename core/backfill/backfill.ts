/** Where a backfill is in its life: waiting for a scan slot, scanning, or finished one of three ways. */
export type BackfillState = 'queued' | 'running' | 'done' | 'cancelled' | 'failed';

export const BACKFILL_STATES: readonly BackfillState[] = ['queued', 'running', 'done', 'cancelled', 'failed'];

/** Heights of the requested range that lay above the archive's tip when the scan got there. */
export type BeyondArchive = { from_block_height: number; to_block_height: number };

/**
 * A backfill as it is stored: the API record plus its owner and the payloads handed to delivery
 * whose outcome is not known yet (their ids, oldest first). Times are ms since the epoch.
 */
export type StoredBackfill = {
  id: string;
  hook_uuid: string;
  owner: string;
  state: BackfillState;
  from_block_height: number;
  to_block_height: number;
  /** The next height to scan; past `to_block_height` once the scan is over. */
  next_block_height: number;
  blocks_scanned: number;
  blocks_matched: number;
  /** Heights of the range with no canonical block in the archive (a gap, or below its first block). */
  blocks_missing: number;
  payloads_queued: number;
  payloads_delivered: number;
  payloads_failed: number;
  outstanding: string[];
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  beyond_archive: BeyondArchive | null;
  /** Why it failed or who cancelled it; null otherwise. */
  reason: string | null;
};

/** The backfill as the API shows it. */
export type BackfillRecord = Omit<StoredBackfill, 'owner' | 'outstanding'> & {
  /** Blocks scanned a second since it started (until it finished); null before it starts. */
  blocks_per_second: number | null;
};

/** Whether a backfill is over: nothing more is scanned or queued for it. */
export function isFinished(backfill: StoredBackfill): boolean {
  return backfill.state === 'done' || backfill.state === 'cancelled' || backfill.state === 'failed';
}

/** A new backfill, queued for a scan slot. */
export function newBackfill(args: {
  id: string;
  hookUuid: string;
  owner: string;
  from: number;
  to: number;
  now: number;
}): StoredBackfill {
  return {
    id: args.id,
    hook_uuid: args.hookUuid,
    owner: args.owner,
    state: 'queued',
    from_block_height: args.from,
    to_block_height: args.to,
    next_block_height: args.from,
    blocks_scanned: 0,
    blocks_matched: 0,
    blocks_missing: 0,
    payloads_queued: 0,
    payloads_delivered: 0,
    payloads_failed: 0,
    outstanding: [],
    created_at: args.now,
    started_at: null,
    finished_at: null,
    beyond_archive: null,
    reason: null,
  };
}

/** The public view of a stored backfill, its rate as of `now`. */
export function toBackfillRecord(backfill: StoredBackfill, now: number): BackfillRecord {
  const { owner: _owner, outstanding: _outstanding, ...shown } = backfill;
  const started = backfill.started_at;
  const elapsedMs = started === null ? 0 : (backfill.finished_at ?? now) - started;
  const rate = started === null ? null : elapsedMs <= 0 ? 0 : (backfill.blocks_scanned * 1000) / elapsedMs;
  return { ...shown, blocks_per_second: rate === null ? null : Math.round(rate * 10) / 10 };
}

/** End a backfill: `done`, `cancelled` or `failed` (with why), at `now`; a finished one stays as it was. */
export function finishBackfill(
  backfill: StoredBackfill,
  state: 'done' | 'cancelled' | 'failed',
  now: number,
  reason: string | null = null,
): StoredBackfill {
  if (isFinished(backfill)) return backfill;
  return {
    ...backfill,
    state,
    finished_at: now,
    reason,
    outstanding: state === 'done' ? [] : backfill.outstanding,
  };
}
