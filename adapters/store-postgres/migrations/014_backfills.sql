-- Backfills (adapters/store-postgres/pg-backfill-store.ts): one row each, the record as jsonb beside
-- the columns its queries select on. The outbox learns the payload kind `backfill`.
CREATE TABLE backfills (
  id text PRIMARY KEY,
  hook_uuid text NOT NULL,
  finished boolean NOT NULL,
  created_at bigint NOT NULL,
  record jsonb NOT NULL
);
CREATE INDEX backfills_by_hook ON backfills (hook_uuid, created_at DESC);
CREATE INDEX backfills_unfinished ON backfills (created_at) WHERE NOT finished;

ALTER TABLE outbox_payloads DROP CONSTRAINT outbox_payloads_kind_check;
ALTER TABLE outbox_payloads ADD CONSTRAINT outbox_payloads_kind_check
  CHECK (kind IN ('live', 'evaluation', 'backfill'));
