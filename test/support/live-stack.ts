import { rm } from 'node:fs/promises';
import { MemoryOutbox } from '../../adapters/outbox/index.js';
import { silentLogger } from '../../adapters/system/index.js';
import { createStackhooks, type Stackhooks } from '../../apps/server/container.js';
import type { HookRecord } from '../../core/hooks/record.js';
import type { NodeBlock } from '../../core/stacks-codec/node-block.js';
import type { Network } from '../../core/hooks/definition.js';
import { sampleDefinition } from './definitions.js';
import { makeTempDir } from './temp-dir.js';

/** A whole stackhooks instance (lowdb, archive, matcher) with an in-memory queue to look at. */
export type LiveStack = {
  stackhooks: Stackhooks;
  queue: MemoryOutbox;
  owner: string;
  /** Register a hook for `owner` from a partial definition. */
  register(overrides: Parameters<typeof sampleDefinition>[0]): Promise<HookRecord>;
  /** Ingest node blocks in order, as the observer would. */
  ingest(...blocks: NodeBlock[]): Promise<void>;
  /** The hook as the API shows it now. */
  hook(uuid: string): Promise<HookRecord>;
  stop(): Promise<void>;
};

/** Build a live stack in a fresh data folder. */
export async function startLiveStack(network: Network = 'mainnet'): Promise<LiveStack> {
  const dataDir = await makeTempDir();
  const queue = new MemoryOutbox();
  const stackhooks = await createStackhooks({
    dataDir,
    network,
    delivery: { allowPrivateTargets: true },
    adapters: { deliveries: queue, logger: silentLogger },
  });
  const owner = 'tester';
  return {
    stackhooks,
    queue,
    owner,
    register: (overrides) =>
      stackhooks.registry.register(owner, { ...sampleDefinition({ network }), ...overrides }),
    async ingest(...blocks) {
      for (const block of blocks) await stackhooks.ingest.ingestNodeBlock(block);
    },
    hook: (uuid) => stackhooks.registry.get(owner, uuid),
    async stop() {
      await stackhooks.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The whole service on the embedded stores of `dataDir` (its real outbox), quiet, private targets allowed. */
export function openEmbedded(dataDir: string): Promise<Stackhooks> {
  return createStackhooks({
    dataDir,
    delivery: { allowPrivateTargets: true },
    adapters: { logger: silentLogger },
  });
}
