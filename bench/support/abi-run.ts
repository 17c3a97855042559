// One scenario of the contract-ABI bench through the real server: startServer on a fresh data folder
// (embedded stores), one enabled contract_call hook posting to the receiver process, blocks posted
// to the event observer by the stand-in stacks-node process, and each block timed from its POST
// leaving the node to its webhook arriving at the receiver (both on the machine's monotonic clock).
import { mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ContractCallArg } from '../../core/chain/transaction-payload.js';
import type { NodeBlock } from '../../core/stacks-codec/node-block.js';
import { sampleDefinition } from '../../test/support/definitions.js';
import { startBenchServer } from './bench-server.js';
import type { Receiver, StandInNode } from './deliver-children.js';
import type { BenchChild } from './deliver-ipc.js';
import { ownCpuSeconds } from './measure.js';

/** Where the called contracts' ABIs can come from in a scenario. */
export type Scenario =
  'no node' | 'node, unknown' | 'node, via mempool' | 'node, known' | 'no node, deployed';

/** One block: POST → webhook (ms), CPU of the server process meanwhile (ms), arguments named of all. */
export type BlockFigure = { ms: number; cpuMs: number; named: number; args: number };

/** What one scenario measured. */
export type ScenarioRun = {
  scenario: Scenario;
  concurrency: number | undefined;
  /** The warm-up blocks (the first is the first block the fresh server sees), then the measured ones. */
  warmup: BlockFigure[];
  measured: BlockFigure[];
  /** Interface requests the stand-in node got during the measured blocks. */
  requests: number;
  /** CPU of the stand-in node over the measured blocks, ms a block. */
  nodeCpuMs: number;
  errors: string[];
};

/** The processes a scenario talks to, and where it may write files. */
export type AbiBenchRig = {
  receiver: Receiver;
  poster: StandInNode;
  abiNode: BenchChild & { ready: { url: string } };
  work: string;
};

const OWNER = 'bench';

/**
 * Run `scenario`: `warmup` blocks, then `measured`, each posted `gapMs` after the previous one's
 * webhook arrived and every write it caused (learned ABIs included) was done, as blocks seconds
 * apart meet the service. `mempool` posts each block's transactions to `/new_mempool_tx` first.
 */
export async function runAbiScenario(options: {
  rig: AbiBenchRig;
  scenario: Scenario;
  /** Blocks posted first that call nothing (deploys): no webhook, not timed. */
  setup: NodeBlock[];
  warmup: NodeBlock[];
  measured: NodeBlock[];
  withNode: boolean;
  mempool: boolean;
  concurrency?: number;
  gapMs: number;
}): Promise<ScenarioRun> {
  const { rig, scenario, setup, warmup, measured, withNode, mempool, concurrency, gapMs } = options;
  const { receiver, poster, abiNode } = rig;
  const label = scenario.replace(/[^a-z]+/g, '-');
  const errors: string[] = [];
  const env: Record<string, string> = {};
  if (withNode) {
    env.STACKHOOKS_NODE_RPC_URL = abiNode.ready.url;
    if (concurrency !== undefined) env.STACKHOOKS_NODE_RPC_CONCURRENCY = String(concurrency);
  }
  const dataDir = await mkdtemp(join(rig.work, `data-${label}-`));
  const server = await startBenchServer({ dataDir, env, errors });
  try {
    const observer = `http://127.0.0.1:${server.observerPort}`;
    await server.stackhooks.registry.register(OWNER, {
      ...sampleDefinition(),
      filters: { events: [{ type: 'contract_call' }] },
      action: { type: 'http_post', url: `${receiver.origin}/hook` },
      options: { enable_on_registration: true, decode_clarity_values: true },
    });
    await receiver.reset();
    let arrivals = 0;
    const settled = async () => {
      await server.stackhooks.ingest.idle();
      await server.stackhooks.dispatcher.idle();
      await server.stackhooks.contractAbis.idle();
    };
    const post = async (path: string, body: string, name: string) => {
      const file = join(rig.work, `${label}-${name}.ndjson`);
      await writeFile(file, `${body}\n`);
      const [ack] = await poster.post(`${observer}${path}`, file, 0);
      if (ack.status !== 200) errors.push(`${path} answered ${ack.status}`);
      return ack;
    };
    const timeBlock = async (block: NodeBlock, i: number): Promise<BlockFigure> => {
      if (mempool) {
        // The node posts a transaction to the mempool seconds before a block mines it.
        await post('/new_mempool_tx', JSON.stringify(block.transactions.map((tx) => tx.raw_tx)), `m${i}`);
        await sleep(50);
      }
      await settled();
      await sleep(gapMs);
      await settled();
      const cpu = ownCpuSeconds();
      const ack = await post('/new_block', JSON.stringify(block), `b${i}`);
      const reached = await receiver.until(++arrivals, 30_000);
      const cpuMs = (ownCpuSeconds() - cpu) * 1000;
      const args = namedArgs(await receiver.sample());
      return { ms: reached.at - ack.sentAt, cpuMs, ...args };
    };
    for (const [i, block] of setup.entries()) {
      await post('/new_block', JSON.stringify(block), `setup${i}`);
      await settled();
    }
    const warm: BlockFigure[] = [];
    for (const [i, block] of warmup.entries()) warm.push(await timeBlock(block, i));
    const requestsBefore = await abiNode.request<number>({ kind: 'requests' });
    const nodeCpuBefore = await abiNode.cpuSeconds();
    const figures: BlockFigure[] = [];
    for (const [i, block] of measured.entries()) figures.push(await timeBlock(block, warmup.length + i));
    await settled();
    return {
      scenario,
      concurrency: withNode ? concurrency : undefined,
      warmup: warm,
      measured: figures,
      requests: (await abiNode.request<number>({ kind: 'requests' })) - requestsBefore,
      nodeCpuMs: (((await abiNode.cpuSeconds()) - nodeCpuBefore) * 1000) / measured.length,
      errors,
    };
  } finally {
    await server.stop('bench done');
  }
}

/** The contract-call arguments of a webhook body, and how many of them carry a name. */
function namedArgs(body: string | null): { named: number; args: number } {
  if (body === null) return { named: 0, args: 0 };
  const payload = JSON.parse(body) as {
    event: {
      apply: { transactions: { operations: { type: string; metadata: { args?: ContractCallArg[] } }[] }[] }[];
    };
  };
  const args = payload.event.apply
    .flatMap((b) => b.transactions)
    .flatMap((tx) => tx.operations)
    .filter((op) => op.type === 'contract_call')
    .flatMap((op) => op.metadata.args ?? []);
  return { named: args.filter((arg) => arg.name !== '').length, args: args.length };
}
