import type { BlockHeader } from '../../core/chain/block-header.js';
import { headerOfBlock, tryNormalizeBlockHash } from '../../core/chain/block-identity.js';
import type { NormalizedBlock } from '../../core/chain/block.js';
import { applyBlockToChain, checkBlockLink } from '../../core/chain/canonical-chain.js';
import { noChainChange } from '../../core/chain/chain-update.js';
import type { ChainUpdate } from '../../core/chain/chain-update.js';
import { invalidInput } from '../../core/hooks/errors.js';
import type { BlockStore } from '../../core/ports/block-store.js';
import type { Database } from './database.js';
import { PgChainView, hashBytes, hashHex } from './pg-chain-view.js';

/** Any fixed number, apart from the other adapters': the first key of the archive's write lock. */
const ARCHIVE_LOCK = 7_406_201;
/** The largest height an `integer` column holds (Stacks is at a few million). */
const MAX_HEIGHT = 2_147_483_647;

type BodyRow = { body: string };

/**
 * The block archive in Postgres. Every write runs the pure chain model (`applyBlockToChain`) over a
 * `PgChainView` inside one transaction that first takes a transaction-scoped advisory lock for the
 * schema, so writers in any number of processes change the chain one at a time and a reader sees
 * each put whole or not at all. Reads are single index lookups and take no lock.
 */
export class PgBlockStore implements BlockStore {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Store a block (a no-op for a hash already stored) and return what it did to the canonical chain. */
  async put(block: NormalizedBlock): Promise<ChainUpdate> {
    const [update] = await this.putMany([block]);
    return update;
  }

  /**
   * Store blocks in order, returning each one's update exactly as `put` in turn would, in one
   * transaction of about ten round trips whatever the batch size. A refused block (a bad hash, or a
   * height that does not follow its parent) refuses the whole batch and nothing of it is stored, so
   * a caller can retry the batch block by block to find and skip the bad one.
   */
  async putMany(blocks: NormalizedBlock[]): Promise<ChainUpdate[]> {
    if (blocks.length === 0) return [];
    // Validated before the transaction: an error names the block's own field.
    const headers = blocks.map(headerOfBlock);
    const tooHigh = headers.find((header) => header.height > MAX_HEIGHT);
    if (tooHigh !== undefined) {
      throw invalidInput([{ field: 'block_identifier.index', message: `must be at most ${MAX_HEIGHT}` }]);
    }
    return this.#db.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [ARCHIVE_LOCK, this.#db.schema]);
      const view = await PgChainView.load(client, headers);
      const updates: ChainUpdate[] = [];
      for (let i = 0; i < blocks.length; i++) {
        const header = headers[i];
        if (await view.isStored(header.hash)) {
          updates.push(noChainChange());
          continue;
        }
        if ((await view.tip()) !== undefined) await checkBlockLink(view, header);
        view.add(header, JSON.stringify(withHeader(blocks[i], header)));
        updates.push(await applyBlockToChain(view, header));
      }
      await view.flush();
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
    if (!Number.isSafeInteger(height) || height < 0 || height > MAX_HEIGHT) return undefined;
    const { rows } = await this.#db.pool.query<BodyRow>(
      'SELECT b.body FROM canonical_blocks c JOIN blocks b ON b.hash = c.hash WHERE c.height = $1',
      [height],
    );
    return rows.length === 0 ? undefined : (JSON.parse(rows[0].body) as NormalizedBlock);
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
}

/** The block as stored: its identifiers' hashes normalized, as every result carries them. */
function withHeader(block: NormalizedBlock, header: BlockHeader): NormalizedBlock {
  return {
    ...block,
    block_identifier: { ...block.block_identifier, hash: header.hash },
    parent_block_identifier: { ...block.parent_block_identifier, hash: header.parent_hash },
  };
}
