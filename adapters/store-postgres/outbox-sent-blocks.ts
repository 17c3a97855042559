import type pg from 'pg';
import type { OutgoingPayload } from '../../core/ports/delivery-queue.js';
import { arrayLiteral, jsonTextsLiteral } from './array-literal.js';

/**
 * Blocks kept per hook for rollbacks (as in the embedded outbox): a reorg deeper than a hook's
 * 10,000 most recent sent blocks cannot name the older ones, and the table stays bounded.
 */
export const SENT_BLOCKS_PER_HOOK = 10_000;

/**
 * One block's net change in a batch: remembered with its transactions, or forgotten (`txIndexes`
 * null), as the payload `payload` (the last to touch it) left it.
 */
export type SentChange = { hook: string; hash: string; txIndexes: number[] | null; payload: string };

/** Sent blocks to remember as array literals, one element per block (see `SentBlocks.inlineColumns`). */
export type SentColumns = { payloads: string; hooks: string; hashes: string; txs: string; seqs: string };

/** The changes of an enqueue, and whether any block's change overrode an earlier one of the same call. */
export type SentChanges = { changes: SentChange[]; overridden: boolean };

/**
 * The `outbox_sent_blocks` table: which blocks each hook was sent in a live apply that no later
 * rollback took back. Trimming a hook to its most recent blocks costs an index walk of that many
 * rows, so it runs only after a tenth of the limit has been added by this process: a hook keeps at
 * least `limit` blocks and at most about a tenth more per writing process.
 */
export class SentBlocks {
  private readonly sinceTrim = new Map<string, number>();
  private readonly trimEvery: number;

  constructor(private readonly limit = SENT_BLOCKS_PER_HOOK) {
    this.trimEvery = Math.max(1, Math.floor(limit / 10));
  }

  /**
   * The net effect of live payloads on the table, in order: a rollback forgets a block, an apply
   * (re)remembers it as the hook's newest. Later changes of one block override earlier ones.
   */
  changesOf(payloads: readonly OutgoingPayload[]): SentChange[] {
    return this.netChanges(payloads).changes;
  }

  /** `changesOf`, and whether a later change of a block overrode an earlier one in `payloads`. */
  netChanges(payloads: readonly OutgoingPayload[]): SentChanges {
    const changes = new Map<string, SentChange>();
    let overridden = false;
    const put = (change: SentChange) => {
      const key = `${change.hook}\u0000${change.hash}`;
      // Deleting first moves the block to the end: the newest change sets its recency.
      if (changes.delete(key)) overridden = true;
      changes.set(key, change);
    };
    for (const payload of payloads) {
      if (payload.kind !== 'live' && payload.remembered !== true) continue;
      const { hook_uuid: hook, id } = payload;
      for (const ref of payload.rollback) put({ hook, hash: ref.hash, txIndexes: null, payload: id });
      for (const ref of payload.apply)
        put({ hook, hash: ref.hash, txIndexes: [...ref.tx_indexes], payload: id });
    }
    return { changes: [...changes.values()], overridden };
  }

  /**
   * The rows an enqueue's own statement can remember, as array literals for `unnest` (payload, hook,
   * hash, tx as `integer[]` literals, seq), each kept only if its payload is inserted: undefined when
   * the enqueue forgets a block or changes one twice, whose net effect then depends on which payloads
   * were new (`write` does those after the insert). `seqs` orders them as `write` would.
   */
  inlineColumns({ changes, overridden }: SentChanges, seqs: readonly number[]): SentColumns | undefined {
    if (overridden || changes.some((c) => c.txIndexes === null)) return undefined;
    const n = changes.length;
    const [payloads, hooks, hashes, txs] = [
      new Array<string>(n),
      new Array<string>(n),
      new Array<string>(n),
      new Array<string>(n),
    ];
    for (let i = 0; i < n; i++) {
      const { payload, hook, hash, txIndexes } = changes[i];
      payloads[i] = payload;
      hooks[i] = hook;
      hashes[i] = hash;
      txs[i] = `{${txIndexes!.join(',')}}`;
    }
    return {
      payloads: arrayLiteral(payloads),
      hooks: arrayLiteral(hooks),
      hashes: arrayLiteral(hashes),
      txs: jsonTextsLiteral(txs),
      seqs: arrayLiteral(seqs.slice(0, n)),
    };
  }

  /** Account for blocks the enqueue's own statement remembered (`inlineColumns`), trimming hooks that are due. */
  async remembered(client: pg.ClientBase, changes: readonly SentChange[]): Promise<void> {
    await this.trim(client, changes);
  }

  /** Apply `changes` in the caller's transaction; `seqs` (ascending, one per change) orders the remembered blocks. */
  async write(client: pg.ClientBase, changes: readonly SentChange[], seqs: readonly number[]): Promise<void> {
    const forgotten = changes.filter((c) => c.txIndexes === null);
    if (forgotten.length > 0)
      await client.query(
        `DELETE FROM outbox_sent_blocks s USING unnest($1::text[], $2::text[]) AS f(hook, hash)
         WHERE s.hook_uuid = f.hook AND s.block_hash = f.hash`,
        [arrayLiteral(forgotten.map((c) => c.hook)), arrayLiteral(forgotten.map((c) => c.hash))],
      );
    const remembered = changes.filter((c) => c.txIndexes !== null);
    if (remembered.length === 0) return;
    await client.query(
      `INSERT INTO outbox_sent_blocks (hook_uuid, block_hash, tx_indexes, seq)
       SELECT hook, hash, tx::integer[], seq FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[])
         AS r(hook, hash, tx, seq)
       ON CONFLICT (block_hash, hook_uuid) DO UPDATE SET tx_indexes = excluded.tx_indexes, seq = excluded.seq`,
      [
        arrayLiteral(remembered.map((c) => c.hook)),
        arrayLiteral(remembered.map((c) => c.hash)),
        arrayLiteral(remembered.map((c) => `{${c.txIndexes!.join(',')}}`)),
        arrayLiteral(remembered.map((_, i) => seqs[i])),
      ],
    );
    await this.trim(client, remembered);
  }

  /** hook → block hash → tx indexes, for those of `blockHashes` that were sent. */
  async lookup(pool: pg.Pool, blockHashes: readonly string[]): Promise<Map<string, Map<string, number[]>>> {
    const result = new Map<string, Map<string, number[]>>();
    if (blockHashes.length === 0) return result;
    const { rows } = await pool.query<{ hook_uuid: string; block_hash: string; tx_indexes: number[] }>(
      `SELECT hook_uuid, block_hash, tx_indexes FROM outbox_sent_blocks WHERE block_hash = ANY($1::text[])
       ORDER BY array_position($1::text[], block_hash), seq`,
      [blockHashes],
    );
    for (const row of rows) {
      let blocks = result.get(row.hook_uuid);
      if (!blocks) result.set(row.hook_uuid, (blocks = new Map()));
      blocks.set(row.block_hash, row.tx_indexes);
    }
    return result;
  }

  /** Forget a hook's blocks in the caller's transaction. */
  async dropHook(client: pg.ClientBase, hookUuid: string): Promise<void> {
    await client.query('DELETE FROM outbox_sent_blocks WHERE hook_uuid = $1', [hookUuid]);
    this.sinceTrim.delete(hookUuid);
  }

  private async trim(client: pg.ClientBase, remembered: readonly { hook: string }[]): Promise<void> {
    const due = new Set<string>();
    for (const { hook } of remembered) {
      const added = (this.sinceTrim.get(hook) ?? 0) + 1;
      if (added < this.trimEvery) this.sinceTrim.set(hook, added);
      else {
        this.sinceTrim.delete(hook);
        due.add(hook);
      }
    }
    if (due.size === 0) return;
    // The (limit + 1)-th newest block of each hook, and everything older, goes.
    await client.query(
      `DELETE FROM outbox_sent_blocks s
       USING (SELECT h, (SELECT seq FROM outbox_sent_blocks WHERE hook_uuid = h ORDER BY seq DESC OFFSET $2 LIMIT 1) AS cut
              FROM unnest($1::text[]) AS h) c
       WHERE s.hook_uuid = c.h AND s.seq <= c.cut`,
      [arrayLiteral([...due]), this.limit],
    );
  }
}
