import type pg from 'pg';
import type { BlockHeader } from '../../core/chain/block-header.js';
import type { ChainGap } from '../../core/chain/chain-gap.js';
import type { ChainView } from '../../core/chain/chain-view.js';

/** A normalized hash as the 32 bytes the tables key on. */
export const hashBytes = (hash: string): Buffer => Buffer.from(hash.slice(2), 'hex');

/** A stored hash as 0x-prefixed lowercase hex. */
export const hashHex = (bytes: Buffer): string => `0x${bytes.toString('hex')}`;

/** A block the batch knows: read from the table (`inTable`) or added by the batch. */
type KnownBlock = { header: BlockHeader; connected: boolean; inTable: boolean; body?: string };
type HeldOrphan = { header: BlockHeader; inTable: boolean };
type HeaderRow = { hash: Buffer; height: number; parent_hash: Buffer };

const headerOfRow = (row: HeaderRow): BlockHeader => ({
  hash: hashHex(row.hash),
  height: row.height,
  parent_hash: hashHex(row.parent_hash),
});

/**
 * The chain model's view of the archive during one write transaction (one block or a batch): the
 * tables, read on demand and cached, overlaid with the batch's changes, which `flush` writes in a few
 * set-based statements. The rows a batch needs are fetched up front in two queries, so a batch of
 * hundreds of blocks costs about ten round trips instead of ten per block. The caller holds the
 * archive's advisory lock for the whole transaction, so nothing else changes the tables meanwhile.
 */
export class PgChainView implements ChainView {
  readonly #client: pg.PoolClient;
  /** Blocks by hash; null when known not to be stored. */
  readonly #blocks = new Map<string, KnownBlock | null>();
  /** Canonical hashes by height as read or set; null when known to be absent. */
  readonly #canonical = new Map<number, string | null>();
  readonly #changedHeights = new Set<number>();
  /** Orphans by parent hash, in the order they were held (the table's first). */
  readonly #orphans = new Map<string, HeldOrphan[]>();
  readonly #added: KnownBlock[] = [];
  readonly #connectedInTable: string[] = [];
  readonly #held: BlockHeader[] = [];
  readonly #released = new Set<string>();
  readonly #releasedInTable: string[] = [];
  readonly #dropped = new Set<string>();
  readonly #droppedInTable: string[] = [];
  #orphanCount: number;
  #gaps: ChainGap[];
  #gapsChanged = false;
  #tip: BlockHeader | undefined;
  /** The highest height that may hold a canonical row, so a lower final tip knows what to cut. */
  #highest: number;

  private constructor(
    client: pg.PoolClient,
    tip: BlockHeader | undefined,
    gaps: ChainGap[],
    orphanCount: number,
  ) {
    this.#client = client;
    this.#tip = tip;
    this.#gaps = gaps;
    this.#orphanCount = orphanCount;
    this.#highest = tip?.height ?? -1;
    // The tip is canonical at its height: a chain that just grows needs no canonical read at all.
    if (tip !== undefined) this.#canonical.set(tip.height, tip.hash);
  }

  /** A view for a transaction that will add `headers`, with their and their parents' rows prefetched. */
  static async load(client: pg.PoolClient, headers: BlockHeader[]): Promise<PgChainView> {
    const { rows } = await client.query<{
      tip_hash: Buffer | null;
      tip_height: number;
      tip_parent_hash: Buffer;
      gaps: ChainGap[];
      orphans: string;
    }>(
      `SELECT tip_hash, tip_height, tip_parent_hash, gaps, (SELECT count(*) FROM block_orphans) AS orphans
       FROM block_chain_state`,
    );
    const state = rows[0];
    const tip =
      state.tip_hash === null
        ? undefined
        : headerOfRow({ hash: state.tip_hash, height: state.tip_height, parent_hash: state.tip_parent_hash });
    const view = new PgChainView(client, tip, state.gaps, Number(state.orphans));
    const keys = [...new Set(headers.flatMap((header) => [header.hash, header.parent_hash]))];
    await view.#prefetch(keys);
    return view;
  }

  /** True when a block with this hash is stored at all: connected, held, or never connectable. */
  async isStored(hash: string): Promise<boolean> {
    return (await this.#lookup(hash)) !== null;
  }

  /** Add a block to be stored, not yet connected: the chain model decides that. */
  add(header: BlockHeader, body: string): void {
    const block: KnownBlock = { header, connected: false, inTable: false, body };
    this.#blocks.set(header.hash, block);
    this.#added.push(block);
  }

  async header(hash: string): Promise<BlockHeader | undefined> {
    const block = await this.#lookup(hash);
    return block?.connected ? block.header : undefined;
  }

  async storedHeader(hash: string): Promise<BlockHeader | undefined> {
    return (await this.#lookup(hash))?.header;
  }

  async canonicalHashAt(height: number): Promise<string | undefined> {
    // Rows above the tip may be left from earlier in the batch until flush cuts them.
    if (this.#tip === undefined || height > this.#tip.height) return undefined;
    let hash = this.#canonical.get(height);
    if (hash === undefined) {
      const { rows } = await this.#client.query<{ hash: Buffer }>(
        'SELECT hash FROM canonical_blocks WHERE height = $1',
        [height],
      );
      hash = rows.length === 0 ? null : hashHex(rows[0].hash);
      this.#canonical.set(height, hash);
    }
    return hash ?? undefined;
  }

  async tip(): Promise<BlockHeader | undefined> {
    return this.#tip;
  }

  async recordHeader(header: BlockHeader): Promise<void> {
    const block = await this.#lookup(header.hash);
    if (!block) throw new Error(`block ${header.hash} is connected but was never stored`);
    if (!block.connected && block.inTable) this.#connectedInTable.push(header.hash);
    block.connected = true;
  }

  async setCanonicalHashAt(height: number, hash: string): Promise<void> {
    this.#canonical.set(height, hash);
    this.#changedHeights.add(height);
    this.#highest = Math.max(this.#highest, height);
  }

  async clearCanonicalAt(height: number): Promise<void> {
    this.#canonical.set(height, null);
    this.#changedHeights.add(height);
  }

  async setTip(header: BlockHeader): Promise<void> {
    this.#tip = header;
  }

  async gaps(): Promise<ChainGap[]> {
    return [...this.#gaps];
  }

  async setGaps(gaps: ChainGap[]): Promise<void> {
    this.#gaps = [...gaps];
    this.#gapsChanged = true;
  }

  async holdOrphan(header: BlockHeader): Promise<void> {
    await this.orphansByParent(header.parent_hash);
    this.#orphans.get(header.parent_hash)?.push({ header, inTable: false });
    this.#held.push(header);
    this.#orphanCount++;
  }

  async orphansByParent(parentHash: string): Promise<BlockHeader[]> {
    let held = this.#orphans.get(parentHash);
    if (held === undefined) {
      await this.#prefetchOrphans([parentHash]);
      held = this.#orphans.get(parentHash) ?? [];
    }
    return held.map((orphan) => orphan.header);
  }

  async releaseOrphans(parentHash: string): Promise<void> {
    const held = this.#orphans.get(parentHash) ?? [];
    if (held.some((orphan) => orphan.inTable)) this.#releasedInTable.push(parentHash);
    this.#orphanCount -= held.length;
    this.#orphans.set(parentHash, []);
    this.#released.add(parentHash);
  }

  async orphanCount(): Promise<number> {
    return this.#orphanCount;
  }

  async heldOrphans(): Promise<BlockHeader[]> {
    const { rows } = await this.#client.query<HeaderRow>(
      'SELECT hash, height, parent_hash FROM block_orphans ORDER BY held_seq',
    );
    const stillHeld = (header: BlockHeader) =>
      !this.#released.has(header.parent_hash) && !this.#dropped.has(header.hash);
    return [...rows.map(headerOfRow), ...this.#held].filter(stillHeld);
  }

  async dropOrphan(header: BlockHeader): Promise<void> {
    const siblings = await this.#orphansOf(header.parent_hash);
    const orphan = siblings.find((o) => o.header.hash === header.hash);
    if (orphan === undefined || this.#dropped.has(header.hash)) return;
    if (orphan.inTable) this.#droppedInTable.push(header.hash);
    this.#orphans.set(
      header.parent_hash,
      siblings.filter((o) => o !== orphan),
    );
    this.#dropped.add(header.hash);
    this.#orphanCount--;
  }

  async #orphansOf(parentHash: string): Promise<HeldOrphan[]> {
    await this.orphansByParent(parentHash);
    return this.#orphans.get(parentHash) ?? [];
  }

  /**
   * Write the batch's changes: new blocks, connections, orphans, canonical rows, gaps, the tip and the
   * count, adding `unreadable` to the unreadable-block count and keeping the latest `receivedAt`.
   */
  async flush(extra: { unreadable: number; receivedAt?: number }): Promise<void> {
    const query = (sql: string, params: unknown[]) => this.#client.query(sql, params);
    const added = this.#added;
    if (added.length > 0) {
      // unnest turns one set of arrays into rows: one statement and one round trip for the whole batch.
      await query(
        `INSERT INTO blocks (hash, height, parent_hash, connected, body)
         SELECT * FROM unnest($1::bytea[], $2::integer[], $3::bytea[], $4::boolean[], $5::text[])`,
        [
          added.map((b) => hashBytes(b.header.hash)),
          added.map((b) => b.header.height),
          added.map((b) => hashBytes(b.header.parent_hash)),
          added.map((b) => b.connected),
          added.map((b) => b.body),
        ],
      );
    }
    if (this.#connectedInTable.length > 0) {
      await query('UPDATE blocks SET connected = true WHERE hash = ANY($1::bytea[])', [
        this.#connectedInTable.map(hashBytes),
      ]);
    }
    if (this.#releasedInTable.length > 0) {
      await query('DELETE FROM block_orphans WHERE parent_hash = ANY($1::bytea[])', [
        this.#releasedInTable.map(hashBytes),
      ]);
    }
    if (this.#droppedInTable.length > 0) {
      await query('DELETE FROM block_orphans WHERE hash = ANY($1::bytea[])', [
        this.#droppedInTable.map(hashBytes),
      ]);
    }
    const held = this.#held.filter(
      (orphan) => !this.#released.has(orphan.parent_hash) && !this.#dropped.has(orphan.hash),
    );
    if (held.length > 0) {
      // ORDER BY the array position, so the identity numbers them in the order they were held.
      await query(
        `INSERT INTO block_orphans (hash, parent_hash, height)
         SELECT h, p, n FROM unnest($1::bytea[], $2::bytea[], $3::integer[]) WITH ORDINALITY AS u(h, p, n, i)
         ORDER BY i`,
        [
          held.map((o) => hashBytes(o.hash)),
          held.map((o) => hashBytes(o.parent_hash)),
          held.map((o) => o.height),
        ],
      );
    }
    await this.#flushCanonical();
    if (added.length > 0 || this.#changedHeights.size > 0 || this.#gapsChanged) {
      const tip = this.#tip;
      await query(
        `UPDATE block_chain_state
         SET tip_hash = $1, tip_height = $2, tip_parent_hash = $3, block_count = block_count + $4,
             gaps = $5::jsonb, unreadable_blocks = unreadable_blocks + $6,
             last_received_at = GREATEST(last_received_at, $7::bigint)`,
        [
          tip && hashBytes(tip.hash),
          tip?.height ?? null,
          tip && hashBytes(tip.parent_hash),
          added.length,
          JSON.stringify(this.#gaps),
          extra.unreadable,
          added.length > 0 ? (extra.receivedAt ?? null) : null,
        ],
      );
    }
  }

  async #flushCanonical(): Promise<void> {
    const tip = this.#tip;
    if (tip === undefined) return;
    const changed = [...this.#changedHeights].filter((height) => height <= tip.height);
    const heights = changed.filter((height) => this.#canonical.get(height) !== null);
    const cleared = changed.filter((height) => this.#canonical.get(height) === null);
    if (cleared.length > 0) {
      await this.#client.query('DELETE FROM canonical_blocks WHERE height = ANY($1::integer[])', [cleared]);
    }
    if (heights.length > 0) {
      await this.#client.query(
        `INSERT INTO canonical_blocks (height, hash) SELECT * FROM unnest($1::integer[], $2::bytea[])
         ON CONFLICT (height) DO UPDATE SET hash = excluded.hash`,
        [heights, heights.map((height) => hashBytes(this.#canonical.get(height) as string))],
      );
    }
    // Nothing is canonical above the tip: cut what a switch to a lower block left there.
    if (this.#highest > tip.height) {
      await this.#client.query('DELETE FROM canonical_blocks WHERE height > $1', [tip.height]);
    }
  }

  /** A block by hash, from the batch or the table (cached either way). */
  async #lookup(hash: string): Promise<KnownBlock | null> {
    if (!this.#blocks.has(hash)) await this.#prefetchBlocks([hash]);
    return this.#blocks.get(hash) ?? null;
  }

  async #prefetch(hashes: string[]): Promise<void> {
    await this.#prefetchBlocks(hashes);
    await this.#prefetchOrphans(hashes);
  }

  async #prefetchBlocks(hashes: string[]): Promise<void> {
    const { rows } = await this.#client.query<HeaderRow & { connected: boolean }>(
      'SELECT hash, height, parent_hash, connected FROM blocks WHERE hash = ANY($1::bytea[])',
      [hashes.map(hashBytes)],
    );
    for (const hash of hashes) this.#blocks.set(hash, null);
    for (const row of rows) {
      const header = headerOfRow(row);
      this.#blocks.set(header.hash, { header, connected: row.connected, inTable: true });
    }
  }

  async #prefetchOrphans(parentHashes: string[]): Promise<void> {
    const { rows } = await this.#client.query<HeaderRow>(
      `SELECT hash, height, parent_hash FROM block_orphans WHERE parent_hash = ANY($1::bytea[])
       ORDER BY held_seq`,
      [parentHashes.map(hashBytes)],
    );
    for (const parent of parentHashes) this.#orphans.set(parent, []);
    for (const row of rows) {
      const header = headerOfRow(row);
      this.#orphans.get(header.parent_hash)?.push({ header, inTable: true });
    }
  }
}
