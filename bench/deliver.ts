// Delivery throughput and latency (issue 5), against a local receiver on loopback, in one run.
//
// Throughput: 100 enabled STX hooks on the embedded defaults (FsOutbox, lowdb), 100 blocks with one
// real signed STX transfer each ingested with delivery stopped (10,000 payloads queued), then
// delivery started and timed until the receiver (its own process: node:http, keep-alive, empty 200s)
// has all 10,000. Beside it, to the same receiver with the same 32 in flight: bare `node:http` and
// got POST loops of the same body and headers, stackhooks' got sender alone, and the drain with a sender stub that
// answers 200 at once (with the file outbox, then with the memory outbox) to show where time goes.
//
// Receivers that take a while (--receiver-ms, default 20): 1,000 hooks × 10 blocks drained at the
// service's default concurrency, beside a bare `node:http` loop with as many in flight (its ceiling).
//
// Latency: the real server (startServer) with 1,000 hooks, of which 10 match every block; a
// stand-in stacks-node process posts a block to the observer every 200 ms (5 blocks/s) for
// --latency-seconds; each matching webhook's arrival is timed from the 200 the node got for its
// block. Times that cross processes are read on the machine-wide monotonic clock (CLOCK_MONOTONIC,
// `process.hrtime`), the same clock for every process; the delivery log's wall-clock times (ms)
// are mapped onto it to split each delivery into stages.
//
// With --v1 every hook is a Chainhook 1.x predicate registered through the 1.x API (`stx_event` for
// the matching ones, a mix of scopes for the rest), so the payloads are 1.x's, with their
// `Authorization` header; the bare loops post the same 1.x body and headers.
//
// Run: npx tsx bench/deliver.ts [--latency-seconds N] [--rounds N] [--receiver-ms N] [--v1]   (prints Markdown for docs/benchmarks.md)
// Exits 0 unless something crashes: a missed target is reported, not a failure (benches fail no build).
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startReceiver, startStandInNode } from './support/deliver-children.js';
import { installFsyncCount } from './support/deliver-fsync-count.js';
import { transferBlocks, type HookApi } from './support/deliver-hooks.js';
import { measureLatency } from './support/deliver-latency.js';
import {
  renderDeliveryReport,
  type SlowReceiverRounds,
  type ThroughputRounds,
} from './support/deliver-markdown.js';
import { DEFAULT_DELIVERY_CONCURRENCY } from '../apps/server/delivery-defaults.js';
import { procLoadavg, watchOtherLoad } from './support/deliver-report.js';
import {
  drainStackhooks,
  postLoop,
  samplePayload,
  stringifyMs,
  type DrainVariant,
} from './support/deliver-throughput.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const HOOKS = 100;
const BLOCKS = 100;
const CONCURRENCY = 32;
const WARMUP_REQUESTS = 3_000;
/** The slow-receiver drain: many hooks, a few payloads each, each receiver answering after a while. */
const SLOW_HOOKS = 1_000;
const SLOW_BLOCKS = 10;

const { values } = parseArgs({
  options: {
    'latency-seconds': { type: 'string', default: '60' },
    rounds: { type: 'string', default: '3' },
    'receiver-ms': { type: 'string', default: '20' },
    v1: { type: 'boolean', default: false },
  },
});
const api: HookApi = values.v1 ? 'v1' : 'v2';
const latencySeconds = Number(values['latency-seconds']);
const rounds = Number(values.rounds);
const receiverMs = Number(values['receiver-ms']);
if (!(latencySeconds > 0) || !Number.isInteger(rounds) || rounds < 1 || !(receiverMs > 0)) {
  console.error(
    'usage: npx tsx bench/deliver.ts [--latency-seconds N] [--rounds N] [--receiver-ms N] [--v1]',
  );
  process.exit(2);
}

const loadBefore = procLoadavg();
const others = watchOtherLoad();
await installFsyncCount();
const receiver = await startReceiver(root);
const node = await startStandInNode(root);
try {
  const blocks = await transferBlocks(BLOCKS);
  const sample = await samplePayload(blocks[0], `${receiver.origin}/hook/sample`, api);
  const total = HOOKS * BLOCKS;
  const runs: ThroughputRounds = { http: [], bare: [], sender: [], full: [], stubFs: [], stubMemory: [] };
  const slowBlocks = blocks.slice(0, SLOW_BLOCKS);
  const slowReceiver: SlowReceiverRounds = {
    answerAfterMs: receiverMs,
    concurrency: DEFAULT_DELIVERY_CONCURRENCY,
    hooks: SLOW_HOOKS,
    blocks: slowBlocks.length,
    drain: [],
    http: [],
  };
  const variants: [keyof ThroughputRounds, DrainVariant][] = [
    ['full', { sender: 'real', outbox: 'fs' }],
    ['stubFs', { sender: 'stub', outbox: 'fs' }],
    ['stubMemory', { sender: 'stub', outbox: 'memory' }],
  ];
  // Warm-up, not reported: the JIT of got, the sender and the receiver, and the receiver's sockets.
  for (const kind of ['http', 'bare', 'sender'] as const) {
    await postLoop({ kind, sample, total: WARMUP_REQUESTS, concurrency: CONCURRENCY, receiver });
  }
  for (let round = 1; round <= rounds; round++) {
    process.stderr.write(`throughput round ${round} of ${rounds}\n`);
    for (const kind of ['http', 'bare', 'sender'] as const) {
      runs[kind].push(await postLoop({ kind, sample, total, concurrency: CONCURRENCY, receiver }));
    }
    for (const [name, variant] of variants) {
      runs[name].push(
        await drainStackhooks({ blocks, hooks: HOOKS, concurrency: CONCURRENCY, receiver, variant, api }),
      );
    }
    const slow = { receiver, answerAfterMs: receiverMs };
    slowReceiver.http.push(
      await postLoop({
        ...slow,
        kind: 'http',
        sample,
        total: SLOW_HOOKS * slowBlocks.length,
        concurrency: DEFAULT_DELIVERY_CONCURRENCY,
      }),
    );
    slowReceiver.drain.push(
      await drainStackhooks({
        ...slow,
        blocks: slowBlocks,
        hooks: SLOW_HOOKS,
        concurrency: undefined,
        variant: { sender: 'real', outbox: 'fs' },
        api,
      }),
    );
  }
  const stringify = stringifyMs(sample.parsed, total);

  process.stderr.write(`latency: ${latencySeconds} s of blocks at 5/s\n`);
  const latency = await measureLatency({
    receiver,
    node,
    seconds: latencySeconds,
    rate: 5,
    hooks: 1_000,
    matching: 10,
    warmup: 5,
    api,
  });

  const childCpu = (await receiver.cpuSeconds()) + (await node.cpuSeconds());
  console.log(
    renderDeliveryReport({
      api,
      rounds,
      hooks: HOOKS,
      blocks: BLOCKS,
      concurrency: CONCURRENCY,
      bodyBytes: Buffer.byteLength(sample.body),
      throughput: runs,
      slowReceiver,
      stringifyMs: stringify,
      latency,
      latencySeconds,
      loadBefore,
      loadAfter: procLoadavg(),
      otherCores: others.stop(childCpu),
    }),
  );
} finally {
  await receiver.stop();
  await node.stop();
}
