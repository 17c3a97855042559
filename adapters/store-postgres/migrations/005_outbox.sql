-- The delivery outbox that every api and worker process shares (adapters/store-postgres/pg-outbox.ts).

-- Enqueue order for payloads and sent blocks. Values are taken only under the outbox's enqueue
-- lock, so their order is also commit order: a reader never sees a later payload of a hook before
-- an earlier one.
CREATE SEQUENCE outbox_seq;

CREATE TABLE outbox_payloads (
  id text PRIMARY KEY,
  hook_uuid text NOT NULL,
  owner text NOT NULL,
  url text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('live', 'evaluation')),
  -- Enqueue order: the delivery log's tie-break after created_at, and the due order's after the due time.
  seq bigint NOT NULL,
  -- Place in the hook's queue: equal to seq until a redelivery puts the payload at the back.
  queue_seq bigint NOT NULL,
  apply_refs jsonb NOT NULL,
  rollback_refs jsonb NOT NULL,
  -- The webhook body as JSON text; null once a delivered payload's grace period is over.
  body text,
  created_at bigint NOT NULL,
  state text NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
  next_attempt_at bigint,
  failure_reason text,
  attempts jsonb NOT NULL DEFAULT '[]',
  delivered_at bigint
);

-- A hook's next pending payload, when its head is settled.
CREATE INDEX outbox_payloads_queue ON outbox_payloads (hook_uuid, queue_seq) WHERE state = 'pending';
-- The delivery log, newest first.
CREATE INDEX outbox_payloads_log ON outbox_payloads (hook_uuid, created_at, seq);
-- Pruning settled payloads, and letting go of delivered bodies.
CREATE INDEX outbox_payloads_settled ON outbox_payloads (created_at) WHERE state <> 'pending';
CREATE INDEX outbox_payloads_bodies ON outbox_payloads (delivered_at)
  WHERE state = 'delivered' AND body IS NOT NULL;

-- One row per hook: its head (oldest pending payload) and the lease of the worker sending it.
-- Every change to a hook's pending set locks this row first, so the head is always exact, and a
-- lease held here covers the whole hook: two workers can never send payloads of one hook at once.
CREATE TABLE outbox_queues (
  hook_uuid text PRIMARY KEY,
  head_id text,
  head_seq bigint,
  next_attempt_at bigint,
  lease_owner text,
  lease_payload text,
  lease_until timestamptz
);

CREATE INDEX outbox_queues_due ON outbox_queues (next_attempt_at, head_seq) WHERE head_id IS NOT NULL;

-- Blocks each hook was sent in a live apply (not rolled back since), for rollbacks.
CREATE TABLE outbox_sent_blocks (
  hook_uuid text NOT NULL,
  block_hash text NOT NULL,
  tx_indexes integer[] NOT NULL,
  seq bigint NOT NULL,
  PRIMARY KEY (hook_uuid, block_hash)
);

CREATE INDEX outbox_sent_blocks_block ON outbox_sent_blocks (block_hash);
CREATE INDEX outbox_sent_blocks_age ON outbox_sent_blocks (hook_uuid, seq);

-- Make a hook's head its pending payload first in queue order (none when nothing is pending);
-- `release` also ends the lease. Callers hold the hook's queue row lock.
CREATE FUNCTION outbox_refresh_head(hook text, release boolean) RETURNS void
LANGUAGE sql SET search_path FROM CURRENT AS $$
  UPDATE outbox_queues q SET
    (head_id, head_seq, next_attempt_at) = (
      SELECT id, seq, next_attempt_at FROM outbox_payloads
      WHERE hook_uuid = q.hook_uuid AND state = 'pending' ORDER BY queue_seq LIMIT 1),
    lease_owner = CASE WHEN release THEN NULL ELSE lease_owner END,
    lease_payload = CASE WHEN release THEN NULL ELSE lease_payload END,
    lease_until = CASE WHEN release THEN NULL ELSE lease_until END
  WHERE hook_uuid = hook
$$;

-- Log an attempt on a payload and apply its outcome ('pending' with `next_at`, 'delivered', or
-- 'failed' with `reason`), as instance `reporter` reports it; `leased_here` says it took it through
-- `due`. One call is one round trip, so the hook's lock is held only while the server works. Each
-- statement of a plpgsql function takes a fresh snapshot, so after the lock it sees the hook's
-- pending payloads as they are now. Rules: a delivery always counts; other outcomes move a pending
-- payload only when the reporter holds the lease, or never leased it and no one else holds one
-- (a report after a lease was taken over is logged, and the new holder decides).
CREATE FUNCTION outbox_record_attempt(
  payload text, attempt jsonb, attempt_at bigint, outcome text, next_at bigint, reason text,
  reporter text, leased_here boolean
) RETURNS void
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  queue outbox_queues%ROWTYPE;
  holds boolean;
  decides boolean;
BEGIN
  SELECT * INTO queue FROM outbox_queues
  WHERE hook_uuid = (SELECT hook_uuid FROM outbox_payloads WHERE id = payload) FOR UPDATE;
  IF NOT FOUND THEN
    RETURN; -- the hook was dropped while the attempt ran
  END IF;
  holds := coalesce(queue.lease_owner = reporter AND queue.lease_payload = payload, false);
  decides := holds OR (NOT leased_here
    AND NOT coalesce(queue.lease_until > now() AND queue.lease_owner <> reporter, false));
  UPDATE outbox_payloads p SET
    attempts = p.attempts || attempt,
    state = CASE WHEN outcome = 'delivered' OR (p.state = 'pending' AND decides) THEN outcome ELSE p.state END,
    next_attempt_at = CASE WHEN outcome = 'delivered' THEN NULL
      WHEN p.state = 'pending' AND decides THEN next_at ELSE p.next_attempt_at END,
    failure_reason = CASE WHEN outcome = 'delivered' THEN NULL
      WHEN p.state = 'pending' AND decides THEN reason ELSE p.failure_reason END,
    delivered_at = CASE WHEN outcome = 'delivered' THEN attempt_at ELSE p.delivered_at END
  WHERE p.id = payload;
  PERFORM outbox_refresh_head(queue.hook_uuid, holds);
END
$$;
