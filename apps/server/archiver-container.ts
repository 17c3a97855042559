import 'reflect-metadata';
import { Container } from 'inversify';
import type { Network } from '../../core/hooks/definition.js';
import { BLOCK_STORE, type BlockStore } from '../../core/ports/block-store.js';
import { CONTRACT_STORE, type ContractStore } from '../../core/ports/contract-store.js';
import { SERVICE_SETTINGS, type ServiceSettings } from '../../core/settings.js';
import { BlockArchiver } from '../../core/use-cases/archive-blocks.js';
import { openFsArchive, openFsContractStore } from '../../adapters/archive-fs/index.js';
import { dataFolders } from './data-folders.js';
import { openPostgresAdapters } from './postgres-adapters.js';

/** Where an archive-only process keeps its blocks: the embedded archive under `dataDir`, or Postgres. */
export type ArchiverOptions = { dataDir: string; network: Network; databaseUrl?: string };

/** A BlockArchiver over the block and contract stores, and the means to close them. */
export type OpenArchiver = { archiver: BlockArchiver; close(): Promise<void> };

/**
 * The composition for `stackhooks import`: only the block and contract stores and the archiver,
 * the same adapters `createStackhooks` picks for the same options. An import delivers nothing and
 * serves no API, so it skips the hook store, the outbox, the event log and the API's schema
 * compilation, which cost an import of a small file a third of its time.
 */
export async function openBlockArchiver(options: ArchiverOptions): Promise<OpenArchiver> {
  let blocks: BlockStore;
  let contracts: ContractStore;
  let close: () => Promise<void>;
  if (options.databaseUrl) {
    const postgres = await openPostgresAdapters(options.databaseUrl, { leaseMs: 60_000 });
    ({ blocks, contracts } = postgres);
    close = () => postgres.close();
  } else {
    const folders = dataFolders(options.dataDir);
    const archive = await openFsArchive(folders.archive);
    blocks = archive;
    contracts = await openFsContractStore(folders.contracts);
    close = () => archive.close();
  }
  const settings: Pick<ServiceSettings, 'network'> = { network: options.network };
  const container = new Container();
  container.bind(BLOCK_STORE).toConstantValue(blocks);
  container.bind(CONTRACT_STORE).toConstantValue(contracts);
  container.bind(SERVICE_SETTINGS).toConstantValue(settings);
  container.bind(BlockArchiver).toSelf().inSingletonScope();
  return { archiver: container.get(BlockArchiver), close };
}
