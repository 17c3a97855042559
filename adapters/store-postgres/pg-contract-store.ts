import type { ContractAbi } from '../../core/chain/contract-abi.js';
import type { DeployedContract } from '../../core/stacks-codec/normalize-block.js';
import type { ContractStore, LearnedAbi } from '../../core/ports/contract-store.js';
import type { Database } from './database.js';

/** Deployed contracts in Postgres, one row each, looked up by id in one query per call. */
export class PgContractStore implements ContractStore {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** The known ABIs among `ids`. */
  async getAbis(ids: string[]): Promise<Map<string, ContractAbi>> {
    const found = new Map<string, ContractAbi>();
    if (ids.length === 0) return found;
    const { rows } = await this.#db.pool.query<{ contract_identifier: string; abi: ContractAbi }>(
      'SELECT contract_identifier, abi FROM contracts WHERE contract_identifier = ANY($1::text[]) AND abi IS NOT NULL',
      [[...new Set(ids)]],
    );
    for (const row of rows) found.set(row.contract_identifier, row.abi);
    return found;
  }

  /** Upsert the contracts in one statement; a contract deployed again replaces its row. */
  async putContracts(contracts: DeployedContract[]): Promise<void> {
    // One row per id: an upsert may not touch the same row twice in a statement. The last one wins.
    const unique = [...new Map(contracts.map((c) => [c.contract_identifier, c])).values()];
    if (unique.length === 0) return;
    await this.#db.pool.query(
      `INSERT INTO contracts (contract_identifier, abi, source_code, clarity_version)
       SELECT i, a::jsonb, s, v FROM unnest($1::text[], $2::text[], $3::text[], $4::integer[]) AS u(i, a, s, v)
       ON CONFLICT (contract_identifier) DO UPDATE
       SET abi = excluded.abi, source_code = excluded.source_code, clarity_version = excluded.clarity_version`,
      [
        unique.map((c) => c.contract_identifier),
        unique.map((c) => (c.abi === null ? null : JSON.stringify(c.abi))),
        unique.map((c) => c.source_code),
        unique.map((c) => c.clarity_version),
      ],
    );
  }

  /** Insert the learned ABIs in one statement; a row that has an ABI keeps it. */
  async putAbis(abis: LearnedAbi[]): Promise<void> {
    const unique = [...new Map(abis.map((a) => [a.contract_identifier, a])).values()];
    if (unique.length === 0) return;
    await this.#db.pool.query(
      `INSERT INTO contracts (contract_identifier, abi, source_code, clarity_version)
       SELECT i, a::jsonb, NULL, NULL FROM unnest($1::text[], $2::text[]) AS u(i, a)
       ON CONFLICT (contract_identifier) DO UPDATE SET abi = excluded.abi WHERE contracts.abi IS NULL`,
      [unique.map((a) => a.contract_identifier), unique.map((a) => JSON.stringify(a.abi))],
    );
  }
}
