// A whole stackhooks instance fed `/new_block` bodies through its event log, as the observer feeds
// it, on the embedded stores or on Postgres, with one hook on every STX event, for the scenario
// tests of streams with gaps, orphans, unreadable blocks and poison.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import { createStackhooks, type Stackhooks } from '../../apps/server/container.js';
import type { DeliveryRecord } from '../../core/delivery/delivery-record.js';
import { BLOCK_STORE, type BlockStore } from '../../core/ports/block-store.js';
import type { NodeBlock } from './block-builder.js';
import { sampleDefinition } from './definitions.js';
import { RecordingLogger } from './api-server.js';
import { dropSchema, freshSchemaUrl } from './postgres.js';
import { send } from './raw-http.js';
import { makeTempDir } from './temp-dir.js';

const OWNER = 'owner';

/** A running instance, the hook, and what the tests look at. */
export type ChainScenario = {
  stackhooks: Stackhooks;
  logger: RecordingLogger;
  dataDir: string;
  databaseUrl: string | undefined;
  hook: string;
  /** Append bodies to the event log as the observer would (a string as it is), then process them all. */
  post(...bodies: (NodeBlock | object | string)[]): Promise<void>;
  /** Process what the log holds. */
  processAll(): Promise<void>;
  /** Close the instance (the stores stay), for an import or a restart. */
  close(): Promise<void>;
  /** Open the instance again on the same stores and process what the log holds. */
  reopen(): Promise<void>;
  /** The status route's answer. */
  status(): Promise<StatusBody>;
  /** Every payload of the hook, oldest first. */
  deliveries(): Promise<DeliveryRecord[]>;
  /** The warn and error lines logged since the start, as `level message`. */
  told(): string[];
  /** Close and remove everything. */
  stop(): Promise<void>;
};

/** The status route's answer, as far as these tests read it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type StatusBody = any;

/** Start a scenario on the embedded stores, or on a fresh Postgres schema. */
export async function startChainScenario(onPostgres: boolean): Promise<ChainScenario> {
  const dataDir = await makeTempDir();
  const databaseUrl = onPostgres ? freshSchemaUrl('scenario') : undefined;
  const logger = new RecordingLogger();
  const open = () =>
    createStackhooks({
      dataDir,
      databaseUrl,
      delivery: { allowPrivateTargets: true },
      adapters: { logger },
    });
  let stackhooks = await open();
  const registered = await stackhooks.registry.register(OWNER, {
    ...sampleDefinition(),
    filters: { events: [{ type: 'stx_event' }] },
    options: { enable_on_registration: true },
  });
  let nextId = 0;
  const processAll = async () => {
    await stackhooks.ingest.wake();
    await stackhooks.ingest.idle();
  };
  const scenario: ChainScenario = {
    get stackhooks() {
      return stackhooks;
    },
    logger,
    dataDir,
    databaseUrl,
    hook: registered.uuid,
    async post(...bodies) {
      for (const body of bodies) {
        const text = typeof body === 'string' ? body : JSON.stringify(body);
        await stackhooks.eventLog.append('/new_block', text, 1_700_000_000_000 + ++nextId);
      }
      await processAll();
    },
    processAll,
    close: () => stackhooks.close(),
    async reopen() {
      stackhooks = await open();
      nextId = stackhooks.eventLog.lastId();
      await processAll();
    },
    status: () => statusOf(stackhooks),
    async deliveries() {
      const all: DeliveryRecord[] = [];
      for (;;) {
        const page = await stackhooks.deliveryLog.list(OWNER, registered.uuid, {
          offset: String(all.length),
          limit: '50',
        });
        all.push(...page.results);
        if (all.length >= page.total || page.results.length === 0) break;
      }
      return all.reverse();
    },
    told: () =>
      logger.lines
        .filter((l) => l.level === 'warn' || l.level === 'error')
        .map((l) => `${l.level} ${l.message}`),
    async stop() {
      await stackhooks.close().catch(() => undefined);
      if (databaseUrl) await dropSchema(databaseUrl);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return scenario;
}

async function statusOf(stackhooks: Stackhooks): Promise<StatusBody> {
  const server: Server = createServer(stackhooks.app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const res = await send(`http://127.0.0.1:${port}`, 'GET', '/chainhooks/v1');
    expect(res.status).to.equal(200);
    return res.body;
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

/**
 * The hook's payloads replayed in order (each rollback removes its blocks, each apply adds them, and
 * a block is never applied while it is applied), against the canonical chain: every canonical block
 * with a readable transaction is applied, except those that filled a gap (filling delivers
 * nothing), and nothing else is. Returns the applied heights, lowest first.
 */
export async function expectDeliveriesMatchChain(
  scenario: ChainScenario,
  filled: ReadonlySet<string> = new Set(),
): Promise<number[]> {
  const applied = new Map<string, number>();
  for (const delivery of await scenario.deliveries()) {
    for (const block of delivery.rollback) {
      expect(applied.has(block.hash), `rollback of ${block.index} that was not applied`).to.equal(true);
      applied.delete(block.hash);
    }
    for (const block of delivery.apply) {
      expect(applied.has(block.hash), `block ${block.index} applied twice`).to.equal(false);
      applied.set(block.hash, block.index);
    }
  }
  const blocks = scenario.stackhooks.container.get<BlockStore>(BLOCK_STORE);
  const tip = await blocks.tip();
  const expected = new Map<string, number>();
  for (let height = 0; tip && height <= tip.height; height++) {
    const block = await blocks.getCanonicalAt(height);
    if (block && block.transactions.length > 0 && !filled.has(block.block_identifier.hash))
      expected.set(block.block_identifier.hash, height);
  }
  expect([...applied.entries()].sort((a, b) => a[1] - b[1])).to.deep.equal(
    [...expected.entries()].sort((a, b) => a[1] - b[1]),
  );
  return [...applied.values()].sort((a, b) => a - b);
}
