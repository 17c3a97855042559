-- The network the schema was created for: one row, written by the first start after this migration.
-- A start for another network is refused, so a testnet process never serves or archives into a
-- mainnet schema (or the reverse).
CREATE TABLE store_network (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  network text NOT NULL,
  recorded_at bigint NOT NULL
);
