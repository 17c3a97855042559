-- A live step writes what it changes in the hooks and no more (adapters/store-postgres/live-step-writes.ts):
-- a block that reaches a thousand hooks no longer rewrites a thousand hook rows.

-- The planner takes a table it never saw analyzed for ten pages of rows: the one-row live_stream,
-- joined to every hook a read returns, then looked like thousands of rows, and reads of a thousand
-- hooks cost enough to be JIT-compiled on every call (tens to hundreds of ms each).
ANALYZE live_stream;

-- A hook's occurrences when a live step counted them without touching its row (the step's only
-- change to most hooks it reaches). Overrides the occurrence fields of the hook's `status`; a write
-- of the whole hook folds them back into `status` and removes the row. Every writer holds the hook
-- row's lock (FOR UPDATE), so a row here never races a write of its hook.
CREATE TABLE hook_occurrences (
  uuid text COLLATE "C" PRIMARY KEY REFERENCES hooks (uuid) ON DELETE CASCADE,
  occurrence_count bigint NOT NULL,
  last_occurrence_at bigint,
  last_occurrence_block_height bigint
);
