-- The outbox's text keys (payload ids, hook uuids, block hashes) compared byte by byte. They are
-- opaque identifiers whose order means nothing, yet under the database's default collation every
-- comparison of them went through the locale (unless it is plain "C"): a live step that queues a
-- thousand payloads puts about five thousand entries into indexes on these columns, sorts and joins
-- them, and the locale's comparisons took about a third of the time of the step's sent-block insert.
-- Every statement that locks several queue rows orders them by hook_uuid, and all of them now use
-- the same byte order, so they still take their locks in one order. Only the indexes are rebuilt:
-- the rows stay as they are.
ALTER TABLE outbox_payloads
  ALTER COLUMN id TYPE text COLLATE "C",
  ALTER COLUMN hook_uuid TYPE text COLLATE "C";
ALTER TABLE outbox_queues
  ALTER COLUMN hook_uuid TYPE text COLLATE "C",
  ALTER COLUMN head_id TYPE text COLLATE "C",
  ALTER COLUMN lease_payload TYPE text COLLATE "C";
ALTER TABLE outbox_sent_blocks
  ALTER COLUMN hook_uuid TYPE text COLLATE "C",
  ALTER COLUMN block_hash TYPE text COLLATE "C";
