-- The live stream's progress, so a block no longer writes every enabled hook's counters.
-- Every live hook evaluates every live block, so its evaluation counters are a position on the
-- stream: `live_stream` holds how many live blocks have been evaluated (with the last one's height
-- and time, unix seconds), and each hook row the position its counters were last written at. Readers
-- show a live hook's counters moved on by the blocks since (core/hooks/live-progress.ts).
CREATE TABLE live_stream (
  -- One row: the key can only be true.
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  evaluated bigint NOT NULL DEFAULT 0,
  last_height bigint,
  last_at bigint
);

INSERT INTO live_stream DEFAULT VALUES;

-- Existing hooks were written with exact counters, and the stream starts at 0: base 0 is exact.
ALTER TABLE hooks ADD COLUMN live_base bigint NOT NULL DEFAULT 0;
