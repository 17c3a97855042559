import type { BlockHeader } from '../../core/chain/block-header.js';
import { MAX_BLOCK_HEIGHT, headerOfBlock, tryNormalizeBlockHash } from '../../core/chain/block-identity.js';
import type { NormalizedBlock } from '../../core/chain/block.js';
import { checkBlockPlacement } from '../../core/chain/block-placement.js';
import { applyBlockToChain, type ChainRules } from '../../core/chain/canonical-chain.js';
import type { ChainGap } from '../../core/chain/chain-gap.js';
import { alreadyStored } from '../../core/chain/chain-update.js';
import type { ChainUpdate } from '../../core/chain/chain-update.js';
import type {
  BlockStore,
  ChainState,
  PutContext,
  QuarantineEntry,
  QuarantinedBody,
} from '../../core/ports/block-store.js';
import type { Database } from './database.js';
import { PgChainView, hashBytes, hashHex } from './pg-chain-view.js';

/** Any fixed number, apart from the other adapters': the first key of the archive's write lock. */
export const ARCHIVE_LOCK = 7_406_201;

type BodyRow = { body: string };

/**
 * The block archive in Postgres. Every write runs the pure chain model (`applyBlockToChain`) over a
 * `PgChainView` inside one transaction that first takes a transaction-scoped advisory lock for the
 * schema, so writers in any number of processes change the chain one at a time and a reader sees
 * each put whole or not at all. Reads are single index lookups and take no lock.
 */
export class PgBlockStore implements BlockStore {
  readonly #db: Database;
  readonly #orphans: Pick<ChainRules, 'maxHeldOrphans' | 'maxOrphanDepth'>;

  /** `orphans` bounds the held orphans (count and depth below the tip); the chain model's defaults when absent. */
  constructor(db: Database, orphans: Pick<ChainRules, 'maxHeldOrphans' | 'maxOrphanDepth'> = {}) {
    this.#db = db;
    this.#orphans = orphans;
  }

  /** Store a block (a no-op for a hash already stored) and return what it did to the canonical chain. */
  async put(block: NormalizedBlock, context: PutContext = {}): Promise<ChainUpdate> {
    const [update] = await this.putMany([block], context);
    return update;
  }

  /**
   * Store blocks in order, returning each one's update exactly as `put` in turn would, in one
   * transaction of about ten round trips whatever the batch size. A refused block (a bad hash, or a
   * height that does not follow its parent) refuses the whole batch and nothing of it is stored, so
   * a caller can retry the batch block by block to find and skip the bad one.
   */
  async putMany(blocks: NormalizedBlock[], context: PutContext = {}): Promise<ChainUpdate[]> {
    if (blocks.length === 0) return [];
    // Validated before the transaction: an error names the block's own field (a height an `integer`
    // column cannot hold included).
    const headers = blocks.map(headerOfBlock);
    const at = context.receivedAt ?? Date.now();
    return this.#db.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [ARCHIVE_LOCK, this.#db.schema]);
      const view = await PgChainView.load(client, headers);
      const updates: ChainUpdate[] = [];
      let unreadable = 0;
      for (let i = 0; i < blocks.length; i++) {
        const header = headers[i];
        if (await view.isStored(header.hash)) {
          updates.push(alreadyStored());
          continue;
        }
        await checkBlockPlacement(view, header);
        view.add(header, JSON.stringify(withHeader(blocks[i], header)));
        if ((blocks[i].unreadable_transactions?.length ?? 0) > 0) unreadable++;
        updates.push(await applyBlockToChain(view, header, { ...this.#orphans, at }));
      }
      await view.flush({ unreadable, receivedAt: at });
      return updates;
    });
  }

  /** Any stored block, canonical, on a side branch or held as an orphan. */
  async getByHash(hash: string): Promise<NormalizedBlock | undefined> {
    const normalized = tryNormalizeBlockHash(hash);
    if (normalized === undefined) return undefined;
    const { rows } = await this.#db.pool.query<BodyRow>('SELECT body FROM blocks WHERE hash = $1', [
      hashBytes(normalized),
    ]);
    return rows.length === 0 ? undefined : (JSON.parse(rows[0].body) as NormalizedBlock);
  }

  /** The canonical block at `height`; the canonical table holds nothing above the tip. */
  async getCanonicalAt(height: number): Promise<NormalizedBlock | undefined> {
    if (!Number.isSafeInteger(height) || height < 0 || height > MAX_BLOCK_HEIGHT) return undefined;
    const { rows } = await this.#db.pool.query<BodyRow>(
      'SELECT b.body FROM canonical_blocks c JOIN blocks b ON b.hash = c.hash WHERE c.height = $1',
      [height],
    );
    return rows.length === 0 ? undefined : (JSON.parse(rows[0].body) as NormalizedBlock);
  }

  /**
   * The canonical blocks at `from`..`to` in one query: a range scan of the canonical table's key
   * joined to the bodies, one snapshot, so a reorganization mid-read cannot mix two chains.
   */
  async canonicalRange(from: number, to: number): Promise<(NormalizedBlock | undefined)[]> {
    if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || to < from) return [];
    const blocks = new Array<NormalizedBlock | undefined>(to - from + 1).fill(undefined);
    const low = Math.max(from, 0);
    const high = Math.min(to, MAX_BLOCK_HEIGHT);
    if (high < low) return blocks;
    const { rows } = await this.#db.pool.query<BodyRow & { height: number }>(
      `SELECT c.height, b.body FROM canonical_blocks c JOIN blocks b ON b.hash = c.hash
       WHERE c.height BETWEEN $1 AND $2`,
      [low, high],
    );
    for (const row of rows) blocks[row.height - from] = JSON.parse(row.body) as NormalizedBlock;
    return blocks;
  }

  /** The canonical tip, from the one-row state table. */
  async tip(): Promise<BlockHeader | undefined> {
    const { rows } = await this.#db.pool.query<{ hash: Buffer | null; height: number; parent_hash: Buffer }>(
      'SELECT tip_hash AS hash, tip_height AS height, tip_parent_hash AS parent_hash FROM block_chain_state',
    );
    const row = rows[0];
    if (row.hash === null) return undefined;
    return { hash: hashHex(row.hash), height: row.height, parent_hash: hashHex(row.parent_hash) };
  }

  /** True when the block is the canonical one at its height. */
  async isCanonical(hash: string): Promise<boolean> {
    const normalized = tryNormalizeBlockHash(hash);
    if (normalized === undefined) return false;
    const { rows } = await this.#db.pool.query(
      `SELECT 1 FROM blocks b JOIN canonical_blocks c ON c.height = b.height AND c.hash = b.hash
       WHERE b.hash = $1`,
      [hashBytes(normalized)],
    );
    return rows.length > 0;
  }

  /** How many distinct blocks are stored, kept in the state row rather than counted. */
  async count(): Promise<number> {
    const { rows } = await this.#db.pool.query<{ block_count: string }>(
      'SELECT block_count FROM block_chain_state',
    );
    return Number(rows[0].block_count);
  }

  /** Keep a body that could not become a block. */
  async quarantine(body: QuarantinedBody): Promise<void> {
    await this.#db.pool.query(
      `INSERT INTO quarantined_bodies (received_at, source, index_block_hash, block_height, reason, body)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [body.received_at, body.source, body.index_block_hash, body.block_height, body.reason, body.body],
    );
  }

  /** Gaps, held orphans, unreadable blocks and the quarantine, in one round trip and one more for the latest quarantined. */
  async chainState(recent = 10): Promise<ChainState> {
    const { rows } = await this.#db.pool.query<{
      gaps: ChainGap[];
      unreadable_blocks: string;
      last_received_at: string | null;
      orphans: string;
      quarantined: string;
    }>(
      `SELECT gaps, unreadable_blocks, last_received_at,
              (SELECT count(*) FROM block_orphans) AS orphans,
              (SELECT count(*) FROM quarantined_bodies) AS quarantined
       FROM block_chain_state`,
    );
    const latest = await this.#db.pool.query<
      QuarantineEntry & { block_height: string | null; received_at: string }
    >(
      `SELECT received_at, source, index_block_hash, block_height, reason FROM quarantined_bodies
       ORDER BY id DESC LIMIT $1`,
      [recent],
    );
    const state = rows[0];
    return {
      gaps: state.gaps,
      heldOrphans: Number(state.orphans),
      unreadableBlocks: Number(state.unreadable_blocks),
      lastReceivedAt: state.last_received_at === null ? null : Number(state.last_received_at),
      quarantined: {
        count: Number(state.quarantined),
        recent: latest.rows.map((row) => ({
          reason: row.reason,
          received_at: Number(row.received_at),
          source: row.source,
          index_block_hash: row.index_block_hash,
          block_height: row.block_height === null ? null : Number(row.block_height),
        })),
      },
    };
  }
}

/** The block as stored: its identifiers' hashes normalized, as every result carries them. */
function withHeader(block: NormalizedBlock, header: BlockHeader): NormalizedBlock {
  return {
    ...block,
    block_identifier: { ...block.block_identifier, hash: header.hash },
    parent_block_identifier: { ...block.parent_block_identifier, hash: header.parent_hash },
  };
}
