-- Leasing and reporting in batches (adapters/store-postgres/pg-outbox.ts): one round trip leases
-- many hooks' heads with their payloads, and one records many attempts, so a worker pays per batch,
-- not per payload, for the round trip, the statement and the commit.

-- Lease to `worker` the head of up to `max_count` hooks that are due at `now_ms`, not in `busy`, and
-- not leased by another worker (or whose lease ran out), earliest due first, and return the leased
-- payloads. `FOR UPDATE SKIP LOCKED` means workers never wait on each other; a hook whose queue row
-- is locked (a report or an enqueue is changing it) is simply left for the next round. The payloads
-- are read by a second statement, whose fresh snapshot holds the heads that the locked rows name.
CREATE FUNCTION outbox_lease_due(worker text, now_ms bigint, busy text[], lease_ms bigint, max_count integer)
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
    SELECT p.id, p.hook_uuid, p.owner, p.url, p.kind, p.apply_refs, p.rollback_refs, p.body,
      p.created_at, jsonb_array_length(p.attempts)
    FROM outbox_payloads p WHERE p.id = ANY(heads)
    ORDER BY p.next_attempt_at, p.seq;
END
$$;

-- Log attempts on payloads and apply their outcomes, as instance `reporter` reports them; the i-th
-- element of each array belongs to the i-th report, and no payload appears twice (the caller splits
-- a batch that repeats one). The rules are those of `outbox_record_attempt` (migration 005), per
-- report: a delivery always counts; other outcomes move a pending payload only when the reporter
-- holds its lease, or never leased it and no one else holds one. The queue rows are locked in
-- hook order, the order every statement that locks several of them follows, so two batches (or a
-- batch and an enqueue) never wait on each other in a circle. `outbox_record_attempt` stays for
-- workers of the previous version during a rolling upgrade.
CREATE FUNCTION outbox_record_attempts(
  ids text[], attempts jsonb[], attempt_ats bigint[], outcomes text[], next_ats bigint[],
  reasons text[], reporter text, leased_here boolean[]
) RETURNS void
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  hooks text[];
  released text[];
BEGIN
  SELECT array_agg(DISTINCT p.hook_uuid) INTO hooks FROM outbox_payloads p WHERE p.id = ANY(ids);
  IF hooks IS NULL THEN
    RETURN; -- every hook was dropped while its attempt ran
  END IF;
  PERFORM 1 FROM outbox_queues q WHERE q.hook_uuid = ANY(hooks) ORDER BY q.hook_uuid FOR UPDATE;
  -- A fresh snapshot from here on: the queue rows as they are now that they are locked.
  WITH report AS (
    SELECT r.id, r.attempt, r.attempt_at, r.outcome, r.next_at, r.reason, q.hook_uuid,
      coalesce(q.lease_owner = reporter AND q.lease_payload = r.id, false) AS holds,
      NOT r.leased AND NOT coalesce(q.lease_until > now() AND q.lease_owner <> reporter, false) AS free
    FROM unnest(ids, attempts, attempt_ats, outcomes, next_ats, reasons, leased_here)
      AS r(id, attempt, attempt_at, outcome, next_at, reason, leased)
    JOIN outbox_payloads reported ON reported.id = r.id
    JOIN outbox_queues q ON q.hook_uuid = reported.hook_uuid),
  changed AS (
    UPDATE outbox_payloads p SET
      attempts = p.attempts || report.attempt,
      state = CASE WHEN report.outcome = 'delivered' OR (p.state = 'pending' AND (report.holds OR report.free))
        THEN report.outcome ELSE p.state END,
      next_attempt_at = CASE WHEN report.outcome = 'delivered' THEN NULL
        WHEN p.state = 'pending' AND (report.holds OR report.free) THEN report.next_at
        ELSE p.next_attempt_at END,
      failure_reason = CASE WHEN report.outcome = 'delivered' THEN NULL
        WHEN p.state = 'pending' AND (report.holds OR report.free) THEN report.reason
        ELSE p.failure_reason END,
      delivered_at = CASE WHEN report.outcome = 'delivered' THEN report.attempt_at ELSE p.delivered_at END
    FROM report WHERE p.id = report.id
    RETURNING report.hook_uuid, report.holds)
  SELECT coalesce(array_agg(changed.hook_uuid) FILTER (WHERE changed.holds), '{}') INTO released FROM changed;
  -- Each hook's head is again its first pending payload in queue order; a held lease ends.
  UPDATE outbox_queues q SET
    (head_id, head_seq, next_attempt_at) = (
      SELECT p.id, p.seq, p.next_attempt_at FROM outbox_payloads p
      WHERE p.hook_uuid = q.hook_uuid AND p.state = 'pending' ORDER BY p.queue_seq LIMIT 1),
    lease_owner = CASE WHEN q.hook_uuid = ANY(released) THEN NULL ELSE q.lease_owner END,
    lease_payload = CASE WHEN q.hook_uuid = ANY(released) THEN NULL ELSE q.lease_payload END,
    lease_until = CASE WHEN q.hook_uuid = ANY(released) THEN NULL ELSE q.lease_until END
  WHERE q.hook_uuid = ANY(hooks);
END
$$;
