// The shapes of the public API's answers, as far as the dashboard reads them.

/** Where a hook is in its life. */
export type HookStatusValue = 'new' | 'streaming' | 'expired' | 'interrupted';

export const HOOK_STATUS_VALUES: readonly HookStatusValue[] = ['new', 'streaming', 'expired', 'interrupted'];

/** One entry of `filters.events`. */
export type EventFilter = { type: string } & Record<string, unknown>;

/** A hook definition. */
export type HookDefinition = {
  name: string;
  version: string;
  chain: string;
  network: string;
  filters: { events: EventFilter[] };
  options?: Record<string, unknown>;
  action: { type: string; url: string };
};

/** A hook record (`GET /me/{uuid}`); times are unix seconds. */
export type HookRecord = {
  uuid: string;
  definition: HookDefinition;
  status: {
    status: HookStatusValue;
    enabled: boolean;
    created_at: number;
    last_evaluated_at: number | null;
    last_evaluated_block_height: number | null;
    last_occurrence_at: number | null;
    last_occurrence_block_height: number | null;
    evaluated_block_count: number;
    occurrence_count: number;
  };
  delivery?: {
    interruption?: { first_missed_block_height: number; interrupted_at: number; reason: string };
    resuming?: { from_block_height: number; next_block_height: number };
    receiver?: { lane: string; circuit: { origin: string; state: string; failures: number } };
  };
};

/** A page of a listing. */
export type Page<T> = { limit: number; offset: number; total: number; results: T[] };

/** Where a payload is. */
export type DeliveryState = 'pending' | 'delivered' | 'failed';

/** One try to POST a payload; `at` is ms since the epoch. */
export type DeliveryAttempt = {
  at: number;
  status_code: number | null;
  error: string | null;
  latency_ms: number;
  lane?: string;
};

/** A payload in the delivery log; times are ms since the epoch. */
export type DeliveryRecord = {
  id: string;
  hook_uuid: string;
  kind: 'live' | 'evaluation' | 'backfill';
  state: DeliveryState;
  apply: { index: number; hash: string; tx_indexes: number[] }[];
  rollback: { index: number; hash: string }[];
  created_at: number;
  next_attempt_at: number | null;
  failure_reason: string | null;
  held_reason: string | null;
  attempts: DeliveryAttempt[];
};

/** The status route (`GET /`), with the operator's figures. */
export type ServiceStatus = {
  server_version: string;
  status: string;
  chain_tip?: { block_height: number; index_block_hash: string } | null;
  archived_blocks?: number;
  ingest?: { entries_behind: number; last_block_at: number | null; lag_seconds: number };
  chain?: {
    last_block_received_at: number | null;
    open_gaps: number;
    gaps: { from_height: number; to_height: number; missing: number }[];
  };
  outbox?: { pending: number; oldest_pending_created_at: number | null };
  conditions?: { name: string; reason: string; since: number }[];
};

/** The consumer secret (`GET` or `POST /me/secret`). */
export type ConsumerSecret = { secret: string | null; standard_webhooks_secret: string | null };

/** Where a backfill is in its life. */
export type BackfillState = 'queued' | 'running' | 'done' | 'cancelled' | 'failed';

/** A backfill (`/me/{uuid}/backfills`); times are ms since the epoch. */
export type BackfillRecord = {
  id: string;
  hook_uuid: string;
  state: BackfillState;
  from_block_height: number;
  to_block_height: number;
  next_block_height: number;
  blocks_scanned: number;
  blocks_matched: number;
  blocks_missing: number;
  payloads_queued: number;
  payloads_delivered: number;
  payloads_failed: number;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  beyond_archive: { from_block_height: number; to_block_height: number } | null;
  reason: string | null;
  blocks_per_second: number | null;
};
