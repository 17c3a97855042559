import 'reflect-metadata';
import { Container } from 'inversify';
import type { Network } from '../../core/hooks/definition.js';
import { BLOCK_STORE, type BlockStore } from '../../core/ports/block-store.js';
import { CLOCK } from '../../core/ports/clock.js';
import { CONTRACT_INTERFACE_SOURCE } from '../../core/ports/contract-interface-source.js';
import { CONTRACT_STORE, type ContractStore } from '../../core/ports/contract-store.js';
import { LOGGER, type Logger } from '../../core/ports/logger.js';
import { TIMER } from '../../core/ports/timer.js';
import { SERVICE_SETTINGS, type ServiceSettings } from '../../core/settings.js';
import { BlockArchiver } from '../../core/use-cases/archive-blocks.js';
import { ChainNotices } from '../../core/use-cases/chain-notices.js';
import { ContractAbis } from '../../core/use-cases/contract-abis.js';
import { openFsArchive, openFsContractStore } from '../../adapters/archive-fs/index.js';
import { NodeRpcInterfaceSource, type NodeRpcOptions } from '../../adapters/node-rpc/index.js';
import { SystemClock, SystemTimer, silentLogger } from '../../adapters/system/index.js';
import { dataFolders } from './data-folders.js';
import { openPostgresAdapters } from './postgres-adapters.js';
import { claimDataFolderNetwork } from './store-network.js';

/**
 * Where an archive-only process keeps its blocks (the embedded archive under `dataDir`, or
 * Postgres), the node's RPC that names calls as the service would, and where warnings go (nowhere
 * by default).
 */
export type ArchiverOptions = {
  dataDir: string;
  network: Network;
  databaseUrl?: string;
  nodeRpc?: NodeRpcOptions;
  logger?: Logger;
};

/**
 * A BlockArchiver over the block and contract stores, its ABI resolution, what it told of the chain
 * (`notices.counters`), the block store (for the chain's state after an import), and the means to
 * close them.
 */
export type OpenArchiver = {
  archiver: BlockArchiver;
  contractAbis: ContractAbis;
  notices: ChainNotices;
  blocks: BlockStore;
  close(): Promise<void>;
};

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
    const postgres = await openPostgresAdapters(options.databaseUrl, {
      leaseMs: 60_000,
      network: options.network,
    });
    ({ blocks, contracts } = postgres);
    close = () => postgres.close();
  } else {
    await claimDataFolderNetwork(options.dataDir, options.network, Date.now());
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
  container.bind(CLOCK).toConstantValue(new SystemClock());
  container.bind(TIMER).toConstantValue(new SystemTimer());
  container.bind(LOGGER).toConstantValue(options.logger ?? silentLogger);
  const nodeRpc = options.nodeRpc && new NodeRpcInterfaceSource(options.nodeRpc);
  if (nodeRpc) container.bind(CONTRACT_INTERFACE_SOURCE).toConstantValue(nodeRpc);
  container.bind(ContractAbis).toSelf().inSingletonScope();
  container.bind(ChainNotices).toSelf().inSingletonScope();
  container.bind(BlockArchiver).toSelf().inSingletonScope();
  const contractAbis = container.get(ContractAbis);
  return {
    archiver: container.get(BlockArchiver),
    contractAbis,
    notices: container.get(ChainNotices),
    blocks,
    async close() {
      await contractAbis.idle();
      nodeRpc?.close();
      await close();
    },
  };
}
