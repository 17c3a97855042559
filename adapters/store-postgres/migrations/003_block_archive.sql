-- The block archive: every block as a tree keyed by index_block_hash, and its canonical chain.

-- Hashes are the 32 raw bytes (half the index size of hex text; a full mainnet has millions of
-- blocks). Bodies are the normalized block's JSON as text: written and read whole, never queried
-- inside, so jsonb's parse and re-encode on every write would be pure cost. `connected` is false
-- while a block waits for its parent (an orphan) or if it can never connect (a wrong height).
CREATE TABLE blocks (
  hash bytea PRIMARY KEY,
  height integer NOT NULL,
  parent_hash bytea NOT NULL,
  connected boolean NOT NULL,
  body text NOT NULL
);

-- Height -> canonical hash, from the first block up to the tip and never above it.
CREATE TABLE canonical_blocks (
  height integer PRIMARY KEY,
  hash bytea NOT NULL
);

-- Blocks held until their parent connects; `held_seq` keeps each parent's orphans in arrival order.
CREATE TABLE block_orphans (
  hash bytea PRIMARY KEY,
  parent_hash bytea NOT NULL,
  height integer NOT NULL,
  held_seq bigint GENERATED ALWAYS AS IDENTITY
);
CREATE INDEX block_orphans_by_parent ON block_orphans (parent_hash, held_seq);

-- The tip and the block count, so `tip()` and `count()` read one row instead of scanning.
CREATE TABLE block_chain_state (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  tip_hash bytea,
  tip_height integer,
  tip_parent_hash bytea,
  block_count bigint NOT NULL DEFAULT 0
);
INSERT INTO block_chain_state DEFAULT VALUES;
