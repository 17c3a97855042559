import type pg from 'pg';
import type { OutgoingPayload } from '../../core/ports/delivery-queue.js';
import { arrayLiteral, jsonTextsLiteral } from './array-literal.js';
import { bodyColumns, cutBodies, type CutBodies } from './outbox-block-texts.js';
import { refsOf } from './outbox-rows.js';
import type { SentBlocks } from './outbox-sent-blocks.js';

/** Any fixed number: with the schema's hash it names the lock that orders enqueues. */
export const ENQUEUE_LOCK = 7_406_005;

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
  const inline = sent.inlineColumns(net, changeSeqs);
  // One statement: the block texts, the payloads, a head for each hook that had nothing pending,
  // and (most enqueues) the sent blocks of the payloads inserted. Rows go as one array per column:
  // Postgres reads a thousand payloads' arrays in a few milliseconds, where the same rows as one
  // JSON document took it over ten (every object's fields looked up by name, every value unescaped).
  // The queue upsert waits for the lock of a queue row that a report holds, then sees its latest
  // head: none left means ours is next. It locks the rows in hook order, as batched reports do
  // (migration 006), so neither waits on the other in a circle.
  const { rows } = await client.query<{ id: string }>(
    `WITH texts AS (
       INSERT INTO outbox_block_texts (id, batch, text)
       SELECT id, $14::bigint, text FROM unnest($15::bigint[], $16::text[]) AS t(id, text)),
     added AS (
       INSERT INTO outbox_payloads (id, hook_uuid, owner, url, kind, seq, queue_seq, apply_refs,
         rollback_refs, body, body_parts, body_blocks, block_batch, created_at, state, next_attempt_at)
       SELECT id, hook, owner, url, kind, seq, seq, apply::jsonb, rb::jsonb, body, parts::text[],
         blocks::bigint[], batch, created, 'pending', created
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[],
         $8::text[], $9::text[], $10::text[], $11::text[], $12::bigint[], $13::bigint[])
         AS t(id, hook, owner, url, kind, seq, apply, rb, body, parts, blocks, batch, created)
       ON CONFLICT (id) DO NOTHING RETURNING id, hook_uuid, seq, created_at),
     started AS (
       INSERT INTO outbox_queues (hook_uuid, head_id, head_seq, next_attempt_at)
       SELECT DISTINCT ON (hook_uuid) hook_uuid, id, seq, created_at FROM added ORDER BY hook_uuid, seq
       ON CONFLICT (hook_uuid) DO UPDATE
         SET head_id = excluded.head_id, head_seq = excluded.head_seq, next_attempt_at = excluded.next_attempt_at
         WHERE outbox_queues.head_id IS NULL),
     remembered AS (
       INSERT INTO outbox_sent_blocks (block_hash, hook_uuid, tx_indexes, seq)
       SELECT s.hash, s.hook, s.tx::integer[], s.seq
       FROM unnest($17::text[], $18::text[], $19::text[], $20::text[], $21::bigint[])
         AS s(payload, hook, hash, tx, seq)
       JOIN added ON added.id = s.payload
       ON CONFLICT (block_hash, hook_uuid) DO UPDATE SET tx_indexes = excluded.tx_indexes, seq = excluded.seq)
     SELECT id FROM added`,
    [
      ...payloadColumns(fresh, seqs, cut, textIds),
      textIds[0] ?? null,
      arrayLiteral(textIds),
      jsonTextsLiteral(cut.texts),
      ...(inline
        ? [inline.payloads, inline.hooks, inline.hashes, inline.txs, inline.seqs]
        : ['{}', '{}', '{}', '{}', '{}']),
    ],
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
 * The payloads as array literals, one per column of `insertPayloads`'s unnest (id, hook, owner,
 * url, kind, seq, apply, rollback, body, parts, blocks, batch, created), each body whole or in
 * pieces around the block texts stored once (`bodyColumns`). Every text is kept exactly as given;
 * the refs, bodies and pieces are JSON texts, quoted all at once (`jsonTextsLiteral`).
 */
function payloadColumns(
  payloads: readonly OutgoingPayload[],
  seqs: readonly number[],
  cut: CutBodies,
  textIds: readonly number[],
): string[] {
  const refs = payloads.map(refsOf);
  const bodies = cut.bodies.map((body) => bodyColumns(body, textIds));
  return [
    arrayLiteral(payloads.map((p) => p.id)),
    arrayLiteral(payloads.map((p) => p.hook_uuid)),
    arrayLiteral(payloads.map((p) => p.owner)),
    arrayLiteral(payloads.map((p) => p.url)),
    arrayLiteral(payloads.map((p) => p.kind)),
    arrayLiteral(seqs.slice(0, payloads.length)),
    jsonTextsLiteral(refs.map((r) => r.apply)),
    jsonTextsLiteral(refs.map((r) => r.rollback)),
    jsonTextsLiteral(bodies.map((b) => b.body)),
    jsonTextsLiteral(bodies.map((b) => b.parts)),
    jsonTextsLiteral(bodies.map((b) => b.blocks)),
    arrayLiteral(bodies.map((b) => b.batch)),
    arrayLiteral(payloads.map((p) => p.created_at)),
  ];
}

// The first payload of each key, in order: an id repeated in one call is queued once, as the first.
function firstOfEach(
  payloads: readonly OutgoingPayload[],
  key: (p: OutgoingPayload) => string,
): OutgoingPayload[] {
  const seen = new Set<string>();
  return payloads.filter((p) => !seen.has(key(p)) && seen.add(key(p)));
}
