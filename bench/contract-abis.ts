// What naming contract-call arguments costs a block, as a user meets it: the real server (startServer,
// embedded stores) with one contract_call hook (decoded values) posting to a receiver process; a
// stand-in stacks-node process posts each block to the event observer; a second stand-in answers
// the RPC's interface requests after 5 ms. Each block is one of 200 calls, each to a contract of its
// own, timed from its POST leaving the node to its webhook arriving at the receiver. Blocks come
// `--gap-ms` apart, after the previous block's webhook and writes are done (as blocks seconds apart).
//   no node              200 contracts nobody knows: the fallback (unnamed), the baseline
//   node, unknown        200 contracts seen for the first time: 200 requests to the node
//   node, via mempool    200 new contracts whose calls the node posted to /new_mempool_tx before
//                        the block (as it does): looked up then, not while the block waits
//   node, known          the same 200 contracts again (learned in the warm-up blocks)
//   no node, deployed    200 contracts whose deploys an earlier block carried (named before the RPC)
// The promise: unknown contracts with a 5 ms node add at most 50 ms; known ones add nothing measurable.
// Run: npx tsx bench/contract-abis.ts [--blocks N] [--warmup N] [--calls N] [--delay-ms N]
//        [--gap-ms N] [--concurrency 128[,64…]] [--unknown-only]   (about 5 minutes with the defaults)
import { execSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { NodeBlock } from '../core/stacks-codec/node-block.js';
import { ChainBuilder, TEST_KEYS, addressOf, contractDeploy } from '../test/support/block-builder.js';
import { LIST_ITEM_ABI, callBlock, contractIds } from './support/abi-calls.js';
import type { AbiNodeReady } from './support/abi-node.js';
import { runAbiScenario, type AbiBenchRig, type Scenario, type ScenarioRun } from './support/abi-run.js';
import { startReceiver, startStandInNode } from './support/deliver-children.js';
import { startBenchChild } from './support/deliver-ipc.js';
import { loadAverage, machineLine, median } from './support/measure.js';

const { values: args } = parseArgs({
  options: {
    blocks: { type: 'string', default: '9' },
    warmup: { type: 'string', default: '3' },
    calls: { type: 'string', default: '200' },
    'delay-ms': { type: 'string', default: '5' },
    'gap-ms': { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '128' },
    'unknown-only': { type: 'boolean', default: false },
  },
});
const BLOCKS = Number(args.blocks);
const WARMUP = Math.max(1, Number(args.warmup));
const CALLS = Number(args.calls);
const DELAY_MS = Number(args['delay-ms']);
const GAP_MS = Number(args['gap-ms']);
const CONCURRENCIES = args.concurrency.split(',').map(Number);
const MARKETS = 'SPJW1XE278YMCEYMXB8ZFGJMH8ZVAAEDP2S2PJYG';
const ALICE = addressOf(TEST_KEYS.alice);

/** The warm-up and measured blocks of a scenario, on a chain of its own; nonces never reused. */
async function blocksFor(
  scenario: Scenario,
  run: number,
): Promise<{ setup: NodeBlock[]; warmup: NodeBlock[]; measured: NodeBlock[] }> {
  const chain = new ChainBuilder({ label: `bench-abis-${scenario}-${run}` });
  const setup: NodeBlock[] = [];
  const blocks: NodeBlock[] = [];
  let contractsOf = (round: number) => contractIds(MARKETS, `s${run}-r${round}`, CALLS);
  if (scenario === 'node, known') contractsOf = () => contractIds(MARKETS, `s${run}-known`, CALLS);
  if (scenario === 'no node, deployed') {
    const names = contractIds(ALICE, 'deployed', CALLS).map((id) => id.split('.')[1]);
    const deploys = await Promise.all(
      names.map((contractName, nonce) =>
        contractDeploy({ contractName, codeBody: '(begin)', abi: LIST_ITEM_ABI, nonce }),
      ),
    );
    setup.push(chain.next({ transactions: deploys }));
    contractsOf = () => contractIds(ALICE, 'deployed', CALLS);
  }
  const nonce = setup.length * CALLS;
  for (let round = 0; round < WARMUP + BLOCKS; round++)
    blocks.push(await callBlock(chain, contractsOf(round), nonce + round * CALLS));
  return { setup, warmup: blocks.slice(0, WARMUP), measured: blocks.slice(WARMUP) };
}

const root = fileURLToPath(new URL('..', import.meta.url));
const work = await mkdtemp(join(tmpdir(), 'stackhooks-bench-abis-'));
const receiver = await startReceiver(root);
const poster = await startStandInNode(root);
const abiNode = await startBenchChild<AbiNodeReady>(
  fileURLToPath(new URL('./support/abi-node.ts', import.meta.url)),
  root,
);
await abiNode.request({ kind: 'delay', ms: DELAY_MS });
const rig: AbiBenchRig = { receiver, poster, abiNode, work };
// The server runs in this process, so what one scenario compiles (undici, the decoder) the next
// finds warm. A first "node, unknown" run in the cold process is shown on its own; the rows after
// it are a process that has been running, as a service meets blocks.
type Step = { scenario: Scenario; withNode: boolean; mempool: boolean; concurrency?: number; cold?: true };
const plan: Step[] = [
  { scenario: 'node, unknown', withNode: true, mempool: false, concurrency: CONCURRENCIES[0], cold: true },
  { scenario: 'no node', withNode: false, mempool: false },
  ...CONCURRENCIES.map((concurrency) => ({
    scenario: 'node, unknown' as const,
    withNode: true,
    mempool: false,
    concurrency,
  })),
  { scenario: 'node, via mempool', withNode: true, mempool: true, concurrency: CONCURRENCIES[0] },
  { scenario: 'node, known', withNode: true, mempool: false, concurrency: CONCURRENCIES[0] },
  { scenario: 'no node, deployed', withNode: false, mempool: false },
];
// --unknown-only: the baseline and the unknown contracts at each concurrency, the rest left out.
if (args['unknown-only']) plan.splice(plan.length - 3, 3);
const loadBefore = loadAverage();
const rows: (ScenarioRun & { cold?: true })[] = [];
try {
  for (const [run, step] of plan.entries()) {
    const blocks = await blocksFor(step.scenario, run);
    rows.push({ ...(await runAbiScenario({ rig, ...step, ...blocks, gapMs: GAP_MS })), cold: step.cold });
    console.error(`${step.scenario} done; load ${loadAverage()}`);
  }
} finally {
  await Promise.all([receiver.stop(), poster.stop(), abiNode.stop()]);
  await rm(work, { recursive: true, force: true });
}
const loadAfter = loadAverage();

const fmt = (n: number) => n.toFixed(1);
const ms = (row: ScenarioRun) => median(row.measured.map((b) => b.ms));
const cpu = (row: ScenarioRun) => median(row.measured.map((b) => b.cpuMs));
const baseline = rows[1];
const deployed = rows.find((row) => row.scenario === 'no node, deployed') ?? baseline;
const commit = execSync('git rev-parse --short HEAD').toString().trim();
console.log(`Commit ${commit}; ${machineLine()}; load average ${loadBefore} before, ${loadAfter} after.`);
console.log(
  `${CALLS} calls to ${CALLS} contracts per block, node answering after ${DELAY_MS} ms; ` +
    `${WARMUP} warm-up and ${BLOCKS} measured blocks each, ${GAP_MS} ms apart.\n`,
);
console.log(
  '| scenario | requests at once | POST → webhook ms, median | best | first block | median − no node | ' +
    'median − deployed | server CPU ms, median | CPU − no node | node CPU ms | args named | node requests |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const row of rows) {
  const named = row.measured.reduce((n, b) => n + b.named, 0);
  const total = row.measured.reduce((n, b) => n + b.args, 0);
  console.log(
    `| ${row.scenario}${row.cold ? ' (cold process)' : ''} | ${row.concurrency ?? ''} | ${fmt(ms(row))} | ${fmt(Math.min(...row.measured.map((b) => b.ms)))} | ` +
      `${fmt(row.warmup[0].ms)} | ${fmt(ms(row) - ms(baseline))} | ${fmt(ms(row) - ms(deployed))} | ` +
      `${fmt(cpu(row))} | ${fmt(cpu(row) - cpu(baseline))} | ${row.concurrency ? fmt(row.nodeCpuMs) : ''} | ` +
      `${named} of ${total} | ${row.requests} |`,
  );
}
const errors = rows.flatMap((row) => row.errors);
if (errors.length > 0) console.log(`\n${errors.length} errors:\n${errors.slice(0, 5).join('\n')}`);
