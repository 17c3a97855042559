-- The raw event log: every body a Stacks node posted, numbered 1, 2, 3 in arrival order.

-- Bodies are kept as the text received (up to 64 MB; TOAST compresses them): they are replayed
-- byte for byte and never queried inside, so jsonb's parse on write would buy nothing.
CREATE TABLE event_log (
  id bigint PRIMARY KEY,
  received_at bigint NOT NULL,
  path text NOT NULL,
  body text NOT NULL
);

-- The id counter. Appenders take the next ids with `UPDATE … RETURNING` in the transaction that
-- inserts the entries, so the row lock makes appends commit in id order: a reader never sees id n+1
-- before n. A sequence would not (a later id can commit first, and an aborted one leaves a gap).
CREATE TABLE event_log_counter (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  last_id bigint NOT NULL DEFAULT 0
);
INSERT INTO event_log_counter DEFAULT VALUES;

-- Processing progress, in a row of its own so marking progress never waits on an append's row lock.
CREATE TABLE event_log_processed (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  processed_id bigint NOT NULL DEFAULT 0,
  note text
);
INSERT INTO event_log_processed DEFAULT VALUES;
