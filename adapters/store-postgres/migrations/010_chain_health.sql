-- What the archive knows of the chain's health, beside the tip in the one-row state: the open gaps
-- (heights missing below a block whose parent never came; a short JSON list, read and written whole
-- with the tip), how many blocks were archived with transactions that could not be decoded, and
-- when the last new block came in (ms since the epoch).
ALTER TABLE block_chain_state
  ADD COLUMN gaps jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN unreadable_blocks bigint NOT NULL DEFAULT 0,
  ADD COLUMN last_received_at bigint;

-- Bodies that could not become blocks at all (poison), kept with why, so processing goes on.
CREATE TABLE quarantined_bodies (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  received_at bigint NOT NULL,
  source text NOT NULL,
  index_block_hash text,
  block_height bigint,
  reason text NOT NULL,
  body text NOT NULL
);
