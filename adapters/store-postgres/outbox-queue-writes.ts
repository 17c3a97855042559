import type pg from 'pg';
import type { OutgoingPayload } from '../../core/ports/delivery-queue.js';
import { blockTextsJson, bodyFieldsJson, cutBodies, type CutBodies } from './outbox-block-texts.js';
import { refsOf } from './outbox-rows.js';
import type { SentBlocks } from './outbox-sent-blocks.js';

/** Any fixed number: with the schema's hash it names the lock that orders enqueues. */
const ENQUEUE_LOCK = 7_406_005;

/**
 * One enqueue, redelivery or hook drop at a time per schema. Sequence values are then taken and
 * committed in the same order, so no reader ever sees a hook's later payload before an earlier one
 * (without it, a worker could send a payload whose predecessor's transaction had not yet committed).
 */
export async function lockEnqueues(client: pg.ClientBase): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))', [ENQUEUE_LOCK]);
}

/** `count` ascending sequence values in one round trip; only under `lockEnqueues`, which keeps others from taking any between. */
export async function takeSeqs(client: pg.ClientBase, count: number): Promise<number[]> {
  const { rows } = await client.query<{ last: string }>(
    `SELECT setval('outbox_seq', nextval('outbox_seq') + $1 - 1) AS last`,
    [count],
  );
  return seqsEndingAt(Number(rows[0].last), count);
}

/**
 * `lockEnqueues`, then `takeSeqs`, in one round trip: the lock is taken while the statement reads
 * its one-row input, before the sequence is read.
 */
async function lockAndTakeSeqs(client: pg.ClientBase, count: number): Promise<number[]> {
  const { rows } = await client.query<{ last: string }>(
    `WITH locked AS MATERIALIZED (SELECT pg_advisory_xact_lock($1, hashtext(current_schema())))
     SELECT setval('outbox_seq', nextval('outbox_seq') + $2 - 1) AS last FROM locked`,
    [ENQUEUE_LOCK, count],
  );
  return seqsEndingAt(Number(rows[0].last), count);
}

function seqsEndingAt(last: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => last - count + 1 + i);
}

/** Recompute a hook's head under its lock (`outbox_refresh_head`, migration 005); `release` also ends the lease. */
export async function refreshHead(client: pg.ClientBase, hookUuid: string, release: boolean): Promise<void> {
  await client.query('SELECT outbox_refresh_head($1, $2)', [hookUuid, release]);
}

/** Store payloads in order, in the caller's transaction, skipping known ids; returns how many were added. */
export async function insertPayloads(
  client: pg.ClientBase,
  payloads: readonly OutgoingPayload[],
  sent: SentBlocks,
): Promise<number> {
  const fresh = firstOfEach(payloads, (p) => p.id);
  if (fresh.length === 0) return 0;
  // Cut before the lock: the serializing is the enqueue's own work, not something to wait on.
  const cut = cutBodies(fresh);
  const net = sent.netChanges(fresh);
  const changes = net.changes.length;
  // Enough values for every payload, every sent-block change and every block text; unused ones are just gaps.
  const seqs = await lockAndTakeSeqs(client, fresh.length + changes + cut.texts.length);
  const changeSeqs = seqs.slice(fresh.length, fresh.length + changes);
  const textIds = seqs.slice(fresh.length + changes);
  const inline = sent.inlineRows(net, changeSeqs);
  // One statement: the block texts, the payloads, a head for each hook that had nothing pending,
  // and (most enqueues) the sent blocks of the payloads inserted.
  // The queue upsert waits for the lock of a queue row that a report holds, then sees its latest
  // head: none left means ours is next. It locks the rows in hook order, as batched reports do
  // (migration 006), so neither waits on the other in a circle.
  const { rows } = await client.query<{ id: string }>(
    `WITH texts AS (
       INSERT INTO outbox_block_texts (id, batch, text)
       SELECT id, batch, text::text FROM json_to_recordset($2::json) AS t(id bigint, batch bigint, text json)),
     added AS (
       INSERT INTO outbox_payloads (id, hook_uuid, owner, url, kind, seq, queue_seq, apply_refs,
         rollback_refs, body, body_parts, body_blocks, block_batch, created_at, state, next_attempt_at)
       SELECT id, hook, owner, url, kind, seq, seq, apply::jsonb, rb::jsonb, coalesce(head, body::text), parts,
         blocks, batch, created, 'pending', created
       FROM json_to_recordset($1::json)
         AS t(id text, hook text, owner text, url text, kind text, seq bigint, apply json, rb json, body json,
              head text, parts text[], blocks bigint[], batch bigint, created bigint)
       ON CONFLICT (id) DO NOTHING RETURNING id, hook_uuid, seq, created_at),
     started AS (
       INSERT INTO outbox_queues (hook_uuid, head_id, head_seq, next_attempt_at)
       SELECT DISTINCT ON (hook_uuid) hook_uuid, id, seq, created_at FROM added ORDER BY hook_uuid, seq
       ON CONFLICT (hook_uuid) DO UPDATE
         SET head_id = excluded.head_id, head_seq = excluded.head_seq, next_attempt_at = excluded.next_attempt_at
         WHERE outbox_queues.head_id IS NULL),
     remembered AS (
       INSERT INTO outbox_sent_blocks (block_hash, hook_uuid, tx_indexes, seq)
       SELECT s.hash, s.hook, s.tx, s.seq
       FROM json_to_recordset($3::json) AS s(payload text, hook text, hash text, tx integer[], seq bigint)
       JOIN added ON added.id = s.payload
       ON CONFLICT (block_hash, hook_uuid) DO UPDATE SET tx_indexes = excluded.tx_indexes, seq = excluded.seq)
     SELECT id FROM added`,
    [payloadRowsJson(fresh, seqs, cut, textIds), blockTextsJson(cut.texts, textIds), inline ?? '[]'],
  );
  const inserted = new Set(rows.map((r) => r.id));
  if (inline !== undefined) {
    await sent.remembered(
      client,
      net.changes.filter((c) => inserted.has(c.payload)),
    );
  } else {
    const added = fresh.filter((p) => inserted.has(p.id));
    await sent.write(client, sent.changesOf(added), changeSeqs);
  }
  return inserted.size;
}

/**
 * The payloads as one JSON array of rows, each body whole or in pieces around the block texts
 * stored once (`bodyFieldsJson`). A `json` value keeps its text as written, so a whole body is
 * stored exactly as serialized, and is never escaped on the way (a `text[]` parameter escapes every
 * quote of every body, which cost about a second per thousand payloads).
 */
function payloadRowsJson(
  payloads: readonly OutgoingPayload[],
  seqs: readonly number[],
  cut: CutBodies,
  textIds: readonly number[],
): string {
  let text = '[';
  for (let i = 0; i < payloads.length; i++) {
    const p = payloads[i];
    const refs = refsOf(p);
    if (i > 0) text += ',';
    text +=
      `{"id":${JSON.stringify(p.id)},"hook":${JSON.stringify(p.hook_uuid)},"owner":${JSON.stringify(p.owner)},` +
      `"url":${JSON.stringify(p.url)},"kind":${JSON.stringify(p.kind)},"seq":${seqs[i]},` +
      `"apply":${refs.apply},"rb":${refs.rollback},"created":${p.created_at},${bodyFieldsJson(cut.bodies[i], textIds)}}`;
  }
  return `${text}]`;
}

// The first payload of each key, in order: an id repeated in one call is queued once, as the first.
function firstOfEach(
  payloads: readonly OutgoingPayload[],
  key: (p: OutgoingPayload) => string,
): OutgoingPayload[] {
  const seen = new Set<string>();
  return payloads.filter((p) => !seen.has(key(p)) && seen.add(key(p)));
}
