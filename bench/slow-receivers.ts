// One slow receiver never slows another: healthy hooks beside receivers that hang or answer late,
// and memory while slow hooks fall behind. The real server (startServer, embedded stores, default
// delivery settings) in this process; the receivers and a stand-in stacks-node in their own.
//
// Isolation: 60 healthy hooks (one origin, 200 after 5 ms) alone, then beside 40 hooks whose
// receivers hang, then beside 40 whose receivers answer 200 after 8 s; each bad hook has an origin
// of its own, so no shared circuit hides them. Blocks at 2 a second, each matching every hook;
// every healthy webhook is timed from the observer's 200 for its block to its arrival.
// Targets: healthy p99 ≤ 1 s, no gap over 2 s for a healthy hook, healthy throughput equal to the
// run without bad receivers.
//
// Memory: 100 hooks whose receivers answer 200 after 8 s (each falls 15 payloads behind every 8 s),
// RSS and heap sampled while the node posts.
//
// Run: npx tsx bench/slow-receivers.ts [--seconds N] [--memory-minutes N] [--sample-seconds N]
// (defaults 30, 1 and 10; the full size is --seconds 70 --memory-minutes 10 --sample-seconds 60).
// Prints Markdown for docs/benchmarks.md. Exits 0 unless something crashes: a missed target is
// reported, not a failure.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startStandInNode } from './support/deliver-children.js';
import { transferBlocks } from './support/deliver-hooks.js';
import { procLoadavg } from './support/deliver-report.js';
import { renderIsolation, renderMemory } from './support/isolation-report.js';
import {
  runIsolation,
  runMemory,
  startIsolationReceivers,
  type IsolationRun,
} from './support/isolation-run.js';
import { machineLine } from './support/measure.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BLOCKS_PER_SECOND = 2;
const HEALTHY = 60;
const BAD = 40;
const LATE_MS = 8_000;
const MEMORY_HOOKS = 100;

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '30' },
    'memory-minutes': { type: 'string', default: '1' },
    'sample-seconds': { type: 'string', default: '10' },
  },
});
const seconds = Number(values.seconds);
const memoryMinutes = Number(values['memory-minutes']);
const sampleSeconds = Number(values['sample-seconds']);
if (!(seconds > 0) || !(memoryMinutes > 0) || !(sampleSeconds > 0)) {
  console.error(
    'usage: npx tsx bench/slow-receivers.ts [--seconds N] [--memory-minutes N] [--sample-seconds N]',
  );
  process.exit(2);
}

const loadBefore = procLoadavg();
const work = await mkdtemp(join(tmpdir(), 'stackhooks-bench-slow-'));
const receivers = await startIsolationReceivers(root);
const node = await startStandInNode(root);
const errors: string[] = [];
try {
  const intervalMs = 1000 / BLOCKS_PER_SECOND;
  const isolationBlocks = Math.round(seconds * BLOCKS_PER_SECOND);
  const memoryBlocks = Math.round(memoryMinutes * 60 * BLOCKS_PER_SECOND);
  const chain = await transferBlocks(
    Math.max(isolationBlocks, memoryBlocks, 10 * BLOCKS_PER_SECOND),
    'bench-slow',
  );
  const blockFile = async (name: string, count: number) => {
    const file = join(work, name);
    await writeFile(
      file,
      chain
        .slice(0, count)
        .map((b) => JSON.stringify(b))
        .join('\n') + '\n',
    );
    return file;
  };
  const isolationFile = await blockFile('isolation.ndjson', isolationBlocks);

  const scenarios = [
    { label: `${HEALTHY} healthy alone`, bad: 0, mode: { kind: 'hang' } as const },
    { label: `${HEALTHY} healthy + ${BAD} hanging`, bad: BAD, mode: { kind: 'hang' } as const },
    {
      label: `${HEALTHY} healthy + ${BAD} answering 200 after ${LATE_MS / 1000} s`,
      bad: BAD,
      mode: { kind: 'late', delayMs: LATE_MS } as const,
    },
  ];
  // Warm-up, not reported: the JIT of the whole path, so the baseline does not pay for it alone.
  process.stderr.write('warm-up: healthy alone, 10 s\n');
  await runIsolation({
    ...scenarios[0],
    receivers,
    node,
    place: { dataDir: join(work, 'warm-up') },
    healthy: HEALTHY,
    blockFile: await blockFile('warm-up.ndjson', 10 * BLOCKS_PER_SECOND),
    blocks: 10 * BLOCKS_PER_SECOND,
    intervalMs,
    drainMs: 30_000,
    errors,
  });
  const runs: IsolationRun[] = [];
  for (const [i, scenario] of scenarios.entries()) {
    process.stderr.write(`isolation: ${scenario.label}, ${seconds} s\n`);
    runs.push(
      await runIsolation({
        ...scenario,
        receivers,
        node,
        place: { dataDir: join(work, `isolation-${i}`) },
        healthy: HEALTHY,
        blockFile: isolationFile,
        blocks: isolationBlocks,
        intervalMs,
        drainMs: 30_000,
        errors,
      }),
    );
  }

  process.stderr.write(`memory: ${MEMORY_HOOKS} slow hooks, ${memoryMinutes} min\n`);
  const samples = await runMemory({
    receivers,
    node,
    place: { dataDir: join(work, 'memory') },
    hooks: MEMORY_HOOKS,
    delayMs: LATE_MS,
    blockFile: await blockFile('memory.ndjson', memoryBlocks),
    intervalMs,
    sampleSeconds,
    errors,
  });

  const rates = runs.map(
    (r) => `${r.achievedRate.toFixed(2)}${r.refusedPosts ? ` (${r.refusedPosts} refused)` : ''}`,
  );
  console.log(
    [
      `Machine: ${machineLine()}; load before ${loadBefore}, after ${procLoadavg()}.`,
      `Isolation: ${seconds} s of blocks at ${BLOCKS_PER_SECOND}/s (${isolationBlocks} blocks; node achieved ${rates.join(', ')} blocks/s).`,
      '',
      renderIsolation(runs),
      '',
      `Memory: ${MEMORY_HOOKS} hooks answering 200 after ${LATE_MS / 1000} s, ${memoryMinutes} min of blocks at ${BLOCKS_PER_SECOND}/s.`,
      '',
      renderMemory(samples),
      '',
      errors.length > 0
        ? `${errors.length} error lines were logged (first: ${errors[0]})`
        : 'No error was logged.',
    ].join('\n'),
  );
} finally {
  await receivers.stop();
  await node.stop();
  await rm(work, { recursive: true, force: true });
}
