-- Payloads held back without an attempt (adapters/store-postgres/pg-outbox.ts): a worker that
-- takes a hook's head and may not send it now (its lane is full, its origin's circuit is open)
-- puts it back, due later, with the reason, and no attempt is logged or counted.
ALTER TABLE outbox_payloads ADD COLUMN held_reason text;

-- `outbox_record_attempts` (migration 006) with one more array, `held`: the reason a pending
-- outcome holds its payload back, or null. A null attempt logs nothing (the payload was put back
-- unsent); the rules for who decides are those of migration 006. The 8-argument version stays for
-- workers of the previous version during a rolling upgrade.
CREATE FUNCTION outbox_record_attempts(
  ids text[], attempts jsonb[], attempt_ats bigint[], outcomes text[], next_ats bigint[],
  reasons text[], reporter text, leased_here boolean[], held text[]
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
  WITH report AS (
    SELECT r.id, r.attempt, r.attempt_at, r.outcome, r.next_at, r.reason, r.held_reason, q.hook_uuid,
      coalesce(q.lease_owner = reporter AND q.lease_payload = r.id, false) AS holds,
      NOT r.leased AND NOT coalesce(q.lease_until > now() AND q.lease_owner <> reporter, false) AS free
    FROM unnest(ids, attempts, attempt_ats, outcomes, next_ats, reasons, leased_here, held)
      AS r(id, attempt, attempt_at, outcome, next_at, reason, leased, held_reason)
    JOIN outbox_payloads reported ON reported.id = r.id
    JOIN outbox_queues q ON q.hook_uuid = reported.hook_uuid),
  changed AS (
    UPDATE outbox_payloads p SET
      attempts = p.attempts || coalesce(report.attempt, '[]'::jsonb),
      state = CASE WHEN report.outcome = 'delivered' OR (p.state = 'pending' AND (report.holds OR report.free))
        THEN report.outcome ELSE p.state END,
      next_attempt_at = CASE WHEN report.outcome = 'delivered' THEN NULL
        WHEN p.state = 'pending' AND (report.holds OR report.free) THEN report.next_at
        ELSE p.next_attempt_at END,
      failure_reason = CASE WHEN report.outcome = 'delivered' THEN NULL
        WHEN p.state = 'pending' AND (report.holds OR report.free) THEN report.reason
        ELSE p.failure_reason END,
      held_reason = CASE WHEN report.outcome = 'delivered' THEN NULL
        WHEN p.state = 'pending' AND (report.holds OR report.free) THEN report.held_reason
        ELSE p.held_reason END,
      delivered_at = CASE WHEN report.outcome = 'delivered' THEN report.attempt_at ELSE p.delivered_at END
    FROM report WHERE p.id = report.id
    RETURNING report.hook_uuid, report.holds)
  SELECT coalesce(array_agg(changed.hook_uuid) FILTER (WHERE changed.holds), '{}') INTO released FROM changed;
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
