// What naming contract-call arguments costs a block: one block of 200 calls, each to a contract of
// its own, ingested into a whole embedded instance (archive, matcher, one contract_call hook with
// decoded values, payloads queued in memory), timed from ingestNodeBlock to the payload queued.
// The stand-in node is a separate process answering each interface request after 5 ms.
//   no node              200 contracts nobody knows: the fallback (unnamed), the baseline
//   node, unknown        200 contracts seen for the first time: 200 requests to the node
//   node, known          the same 200 contracts again (learned in a warm-up block)
//   node, via mempool    200 new contracts whose calls the node posted to /new_mempool_tx before
//                        the block (as it does): looked up then, not while the block waits
//   no node, deployed    200 contracts whose deploys an earlier block carried (named before this work)
// The promise: unknown contracts with a 5 ms node add at most 50 ms; known ones add nothing measurable.
// Run: npx tsx bench/contract-abis.ts [--rounds N] [--calls N] [--delay-ms N]   (about 2 minutes)
import { spawn } from 'node:child_process';
import { execSync } from 'node:child_process';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { MemoryOutbox } from '../adapters/outbox/index.js';
import { silentLogger } from '../adapters/system/index.js';
import { createStackhooks, type Stackhooks } from '../apps/server/container.js';
import type { ContractCallArg } from '../core/chain/transaction-payload.js';
import type { NodeBlock } from '../core/stacks-codec/node-block.js';
import { ChainBuilder, TEST_KEYS, addressOf, contractDeploy } from '../test/support/block-builder.js';
import { sampleDefinition } from '../test/support/definitions.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import { LIST_ITEM_ABI, callBlock, contractIds } from './support/abi-calls.js';
import { loadAverage, machineLine, median } from './support/measure.js';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '9' },
    calls: { type: 'string', default: '200' },
    'delay-ms': { type: 'string', default: '5' },
  },
});
const ROUNDS = Number(args.rounds);
const CALLS = Number(args.calls);
const DELAY_MS = Number(args['delay-ms']);
const MARKETS = 'SPJW1XE278YMCEYMXB8ZFGJMH8ZVAAEDP2S2PJYG';
const ALICE = addressOf(TEST_KEYS.alice);

type Scenario = 'no node' | 'node, unknown' | 'node, via mempool' | 'node, known' | 'no node, deployed';
type Row = { scenario: Scenario; ms: number[]; named: number; args: number; requests: number };

/** The stand-in node: a child process that prints its URL. */
async function startNode(): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/support/abi-node.ts', String(DELAY_MS)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(child.stdout, 'data')) as [Buffer];
  const { url } = JSON.parse(line.toString().trim()) as { url: string };
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

async function openInstance(dataDir: string, nodeUrl: string | undefined) {
  const queue = new MemoryOutbox();
  const stackhooks = await createStackhooks({
    dataDir,
    delivery: { allowPrivateTargets: true },
    nodeRpc: nodeUrl ? { url: nodeUrl } : undefined,
    adapters: { deliveries: queue, logger: silentLogger },
  });
  await stackhooks.registry.register('bench', {
    ...sampleDefinition(),
    filters: { events: [{ type: 'contract_call' }] },
    options: { enable_on_registration: true, decode_clarity_values: true },
  });
  return { stackhooks, queue };
}

/** Time each measured block from ingest to its payload queued; count the arguments that went out named. */
async function measure(
  scenario: Scenario,
  stackhooks: Stackhooks,
  queue: MemoryOutbox,
  warmup: NodeBlock[],
  measured: NodeBlock[],
): Promise<Row> {
  for (const block of warmup) await stackhooks.ingest.ingestNodeBlock(block);
  await stackhooks.contractAbis.idle();
  const queuedBefore = queue.all().length;
  const requestsBefore = stackhooks.contractAbis.counters.node_requests;
  const ms: number[] = [];
  for (const block of measured) {
    if (scenario === 'node, via mempool') {
      // The node posts a transaction to the mempool seconds before a block mines it.
      stackhooks.contractAbis.prefetchMempool(JSON.stringify(block.transactions.map((tx) => tx.raw_tx)));
      await stackhooks.contractAbis.idle();
    }
    const start = performance.now();
    await stackhooks.ingest.ingestNodeBlock(block);
    ms.push(performance.now() - start);
  }
  const sent = queue
    .all()
    .slice(queuedBefore)
    .flatMap((p) => p.body.event.apply)
    .flatMap((b) => b.transactions)
    .flatMap((tx) => tx.operations)
    .filter((op) => op.type === 'contract_call')
    .flatMap((op) => op.metadata.args as ContractCallArg[]);
  return {
    scenario,
    ms,
    named: sent.filter((arg) => arg.name !== '').length,
    args: sent.length,
    requests: stackhooks.contractAbis.counters.node_requests - requestsBefore,
  };
}

/** Blocks on a chain of their own: each round's calls from `contractsOf(round)`, nonces never reused. */
async function blocksOf(
  chain: ChainBuilder,
  rounds: number,
  contractsOf: (round: number) => string[],
  nonce = 0,
) {
  const blocks: NodeBlock[] = [];
  for (let round = 0; round < rounds; round++)
    blocks.push(await callBlock(chain, contractsOf(round), nonce + round * CALLS));
  return blocks;
}

async function scenario(name: Scenario, nodeUrl: string | undefined): Promise<Row> {
  const dataDir = await makeTempDir('stackhooks-bench-abis-');
  const { stackhooks, queue } = await openInstance(dataDir, nodeUrl);
  try {
    const chain = new ChainBuilder({ label: `bench-abis-${name}` });
    const fresh = (round: number) => contractIds(MARKETS, `r${round}`, CALLS);
    if (name === 'no node' || name === 'node, unknown' || name === 'node, via mempool') {
      // Round 0 warms up (and opens the connection to the node); every round calls new contracts.
      const blocks = await blocksOf(chain, ROUNDS + 1, fresh);
      return await measure(name, stackhooks, queue, blocks.slice(0, 1), blocks.slice(1));
    }
    if (name === 'node, known') {
      const blocks = await blocksOf(chain, ROUNDS + 1, () => fresh(0));
      return await measure(name, stackhooks, queue, blocks.slice(0, 1), blocks.slice(1));
    }
    const names = contractIds(ALICE, 'deployed', CALLS).map((id) => id.split('.')[1]);
    const deploys = await Promise.all(
      names.map((contractName, nonce) =>
        contractDeploy({ contractName, codeBody: '(begin)', abi: LIST_ITEM_ABI, nonce }),
      ),
    );
    const deployBlock = chain.next({ transactions: deploys });
    const blocks = await blocksOf(chain, ROUNDS + 1, () => contractIds(ALICE, 'deployed', CALLS), CALLS);
    return await measure(name, stackhooks, queue, [deployBlock, blocks[0]], blocks.slice(1));
  } finally {
    await stackhooks.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const loadBefore = loadAverage();
const node = await startNode();
const rows: Row[] = [];
try {
  rows.push(await scenario('no node', undefined));
  rows.push(await scenario('node, unknown', node.url));
  rows.push(await scenario('node, via mempool', node.url));
  rows.push(await scenario('node, known', node.url));
  rows.push(await scenario('no node, deployed', undefined));
} finally {
  await node.stop();
}
const loadAfter = loadAverage();

const baseline = median(rows[0].ms);
const deployed = median(rows[4].ms);
const commit = execSync('git rev-parse --short HEAD').toString().trim();
const fmt = (n: number) => n.toFixed(1);
console.log(`Commit ${commit}; ${machineLine()}; load average ${loadBefore} before, ${loadAfter} after.`);
console.log(
  `${CALLS} calls to ${CALLS} contracts per block, node answering after ${DELAY_MS} ms; ${ROUNDS} blocks each.\n`,
);
console.log(
  '| scenario | ms per block, median | best | median − no node | median − deployed | args named | node requests |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const row of rows) {
  const m = median(row.ms);
  console.log(
    `| ${row.scenario} | ${fmt(m)} | ${fmt(Math.min(...row.ms))} | ${fmt(m - baseline)} | ${fmt(m - deployed)} | ` +
      `${row.named} of ${row.args} | ${row.requests} |`,
  );
}
