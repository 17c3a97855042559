import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ContractAbi } from '../../core/chain/contract-abi.js';
import type { DeployedContract } from '../../core/stacks-codec/normalize-block.js';
import type { ContractStore, LearnedAbi } from '../../core/ports/contract-store.js';
import { diskWriteFailure, type DiskSpaceReport } from '../../core/storage/write-failure.js';

/** A contract's file: its deploy, or an ABI learned without one (then no source and no version). */
type StoredContract = Omit<DeployedContract, 'source_code'> & { source_code: string | null };

/** Learned ABIs written at once: half of libuv's default file threads. */
const LEARNED_WRITERS = 2;
const STORE = 'contract store';

/**
 * Deployed contracts as one small JSON file each, under a 256-way fan-out of their id's hash: a
 * full mainnet has on the order of 100,000 contracts, too many to hold in memory or in one document.
 */
export class FsContractStore implements ContractStore {
  /** Fan-out folders known to exist, so that a deploy costs no mkdir after its folder's first. */
  readonly #folders = new Set<string>();

  constructor(
    private readonly dir: string,
    /** Told of a full disk and of the next write that succeeds. */
    private readonly space?: DiskSpaceReport,
  ) {}

  /**
   * The known ABIs among `ids`. A block asks about every contract it calls that is not in memory,
   * and most have no file: those are told apart by a synchronous stat (microseconds, from the
   * directory cache) rather than a failed asynchronous open each (a thread-pool round trip each:
   * 3–8 ms for 200 on the block's path); only files that exist are read.
   */
  async getAbis(ids: string[]): Promise<Map<string, ContractAbi>> {
    const found = new Map<string, ContractAbi>();
    await Promise.all(
      ids
        .filter((id) => this.#exists(id))
        .map(async (id) => {
          const stored = await this.read(id);
          if (stored?.abi) found.set(id, stored.abi);
        }),
    );
    return found;
  }

  /**
   * Write each contract's file (temp file, then rename, so a reader never sees half of one). The files
   * are independent, so they are written concurrently: a block of deploys costs one file's latency.
   */
  async putContracts(contracts: DeployedContract[]): Promise<void> {
    // The same contract twice in one call would race on its temporary file: the last one wins alone.
    const byPath = new Map(
      contracts.map((contract) => [this.pathOf(contract.contract_identifier), contract]),
    );
    await Promise.all([...byPath].map(([path, contract]) => this.write(path, contract)));
  }

  /**
   * Write a file for each learned ABI whose contract has none with an ABI already, a few at a time:
   * these writes happen beside block intake, and hundreds at once would fill libuv's four file
   * threads, so that the archive writes of the next block would queue behind all of them.
   */
  async putAbis(abis: LearnedAbi[]): Promise<void> {
    const pending = [...new Map(abis.map((learned) => [this.pathOf(learned.contract_identifier), learned]))];
    const writeNext = async (): Promise<void> => {
      for (let next = pending.shift(); next; next = pending.shift()) {
        const [path, { contract_identifier, abi }] = next;
        if (this.#exists(contract_identifier) && (await this.read(contract_identifier))?.abi) continue;
        await this.write(path, { contract_identifier, abi, source_code: null, clarity_version: null });
      }
    };
    await Promise.all(Array.from({ length: LEARNED_WRITERS }, writeNext));
  }

  private async read(id: string): Promise<StoredContract | undefined> {
    try {
      return JSON.parse(await readFile(this.pathOf(id), 'utf8')) as StoredContract;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  // A failed write leaves the old file (or none) under the name: the temporary is what it cut short.
  private async write(path: string, contract: StoredContract): Promise<void> {
    try {
      const folder = join(path, '..');
      if (!this.#folders.has(folder)) {
        await mkdir(folder, { recursive: true });
        this.#folders.add(folder);
      }
      await writeFile(`${path}.tmp`, JSON.stringify(contract));
      await rename(`${path}.tmp`, path);
    } catch (err) {
      throw diskWriteFailure(err, STORE, this.space);
    }
    this.space?.wrote(STORE);
  }

  #exists(id: string): boolean {
    return statSync(this.pathOf(id), { throwIfNoEntry: false }) !== undefined;
  }

  private pathOf(id: string): string {
    const digest = createHash('sha256').update(id).digest('hex');
    return join(this.dir, digest.slice(0, 2), `${digest}.json`);
  }
}

/** Open the contract store in `dir`; `space` is told of a full disk. */
export async function openFsContractStore(dir: string, space?: DiskSpaceReport): Promise<FsContractStore> {
  await mkdir(dir, { recursive: true });
  return new FsContractStore(dir, space);
}
