-- The raw event log entry of the live stream's last step. A chain change published again after a
-- stop (its step stored, its entry not yet marked processed) is recognized by it, so its blocks are
-- not counted twice. Null until a step names an entry.
ALTER TABLE live_stream ADD COLUMN last_event_id bigint;
