-- A block's text once for all the payloads of one enqueue that carry it (adapters/store-postgres/
-- outbox-block-texts.ts), not once for every hook a live step reaches: a block that a thousand
-- hooks match was stored a thousand times (2.5 MB a block for 2.5 KB bodies).

-- The shaped blocks' JSON, each once per enqueue. `batch` is the enqueue's first text id, which the
-- payloads that refer to them hold too, so a prune finds unreferenced texts with one index probe.
CREATE TABLE outbox_block_texts (
  id bigint PRIMARY KEY,
  batch bigint NOT NULL,
  text text NOT NULL
);

-- A payload cut around its shared blocks keeps its own text in pieces: the body is `body`, then
-- for each i the text of block `body_blocks[i]` and `body_parts[i]`. A body sent whole keeps it all
-- in `body`, as before, and these stay null. `body IS NULL` still means the body is gone.
ALTER TABLE outbox_payloads
  ADD COLUMN body_parts text[],
  ADD COLUMN body_blocks bigint[],
  ADD COLUMN block_batch bigint;
CREATE INDEX outbox_payloads_block_batch ON outbox_payloads (block_batch) WHERE block_batch IS NOT NULL;

-- A payload's body, put together from its pieces and its blocks' texts; null when a text is missing
-- (which no prune allows), so the sender reports a broken invariant rather than send half a body.
CREATE FUNCTION outbox_body(head text, parts text[], blocks bigint[]) RETURNS text
LANGUAGE sql STABLE SET search_path FROM CURRENT AS $$
  SELECT head || (
    SELECT CASE WHEN count(t.id) = count(*) THEN coalesce(string_agg(t.text || u.part, '' ORDER BY u.i), '') END
    FROM unnest(blocks, parts) WITH ORDINALITY AS u (block, part, i)
    LEFT JOIN outbox_block_texts t ON t.id = u.block)
$$;

-- `outbox_lease_due` (migration 006) with each body put together (`outbox_body`).
CREATE OR REPLACE FUNCTION outbox_lease_due(worker text, now_ms bigint, busy text[], lease_ms bigint, max_count integer)
RETURNS TABLE (id text, hook_uuid text, owner text, url text, kind text, apply_refs jsonb,
  rollback_refs jsonb, body text, created_at bigint, attempt_count integer)
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
#variable_conflict use_column
DECLARE
  heads text[];
BEGIN
  WITH picked AS MATERIALIZED (
    SELECT q.hook_uuid FROM outbox_queues q
    WHERE q.head_id IS NOT NULL AND q.next_attempt_at <= now_ms AND q.hook_uuid <> ALL(busy)
      AND (q.lease_owner IS NULL OR q.lease_owner = worker OR q.lease_until <= now())
    ORDER BY q.next_attempt_at, q.head_seq
    LIMIT max_count
    FOR UPDATE SKIP LOCKED),
  leased AS (
    UPDATE outbox_queues q
    SET lease_owner = worker, lease_payload = q.head_id,
      lease_until = now() + lease_ms * interval '1 millisecond'
    FROM picked WHERE q.hook_uuid = picked.hook_uuid
    RETURNING q.head_id)
  SELECT array_agg(leased.head_id) INTO heads FROM leased;
  IF heads IS NULL THEN
    RETURN;
  END IF;
  RETURN QUERY
    SELECT p.id, p.hook_uuid, p.owner, p.url, p.kind, p.apply_refs, p.rollback_refs,
      CASE WHEN p.body_blocks IS NULL THEN p.body ELSE outbox_body(p.body, p.body_parts, p.body_blocks) END,
      p.created_at, jsonb_array_length(p.attempts)
    FROM outbox_payloads p WHERE p.id = ANY(heads)
    ORDER BY p.next_attempt_at, p.seq;
END
$$;
