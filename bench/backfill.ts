// Backfill speed (docs/benchmarks.md): the real server as its own process, on an embedded archive
// of 1,000,000 synthetic blocks (bench/support/backfill-chain.ts, built once and kept under /tmp),
// or with `--store postgres` on the same chain in a schema of the local PostgreSQL (kept between
// runs too), scanned through the API. Measured: the archive read and matched in this process one
// height at a time and as ranges (embedded only); a selective hook (1 block in 2,000 matches) over
// the whole archive, alone and again while a stand-in node posts a block to the observer every
// 200 ms (the observer POST's and the status route's latency, and the live delivery latency of a
// hook on the node's new blocks, with baselines taken before any scan); a hook matching every
// block over the first 20,000 (delivery-limited); the server's RSS and CPU over each scan.
// Run: flock /tmp/stackhooks-bench.lock npx tsx bench/backfill.ts [--store embedded|postgres]
//        [--blocks N] [--every K] [--dense N] [--post-ms MS] [--phases reads,alone,observer,dense]
//        [--delivery-retention D] [--build-only]
// Prints Markdown; exits 0 whatever it measures.
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sampleDefinition } from '../test/support/definitions.js';
import { freePort, spawnServer } from '../test/support/server-process.js';
import { RARE_ASSET, backfillChain, compareReads } from './support/backfill-chain.js';
import { checkpointDatabase, pgBackfillChain } from './support/backfill-pg-chain.js';
import {
  LIVE_RECIPIENT,
  liveLatencies,
  observerPoster,
  renderBackfillReport,
  serverSampler,
  type ScanRun,
} from './support/backfill-run.js';
import { loadAverage, machineLine } from './support/measure.js';

const { values: args } = parseArgs({
  options: {
    blocks: { type: 'string', default: '1000000' },
    every: { type: 'string', default: '2000' },
    dense: { type: 'string', default: '20000' },
    'post-ms': { type: 'string', default: '200' },
    'build-only': { type: 'boolean', default: false },
    /** Which measurements to take: reads (the archive read two ways, in this process), alone (selective scan), observer (baseline, then a scan with posts), dense. */
    phases: { type: 'string', default: 'reads,alone,observer,dense' },
    /** STACKHOOKS_DELIVERY_RETENTION for the server: how long the delivery log keeps each payload. */
    'delivery-retention': { type: 'string', default: '7d' },
    /** Where the server keeps its blocks (and everything else): the embedded store or PostgreSQL. */
    store: { type: 'string', default: 'embedded' },
  },
});
const POSTGRES = args.store === 'postgres';
if (!POSTGRES && args.store !== 'embedded') throw new Error('--store is embedded or postgres');
const PHASES = new Set(args.phases.split(','));
const BLOCKS = Number(args.blocks);
const EVERY = Number(args.every);
const DENSE = Math.min(Number(args.dense), BLOCKS);
const KEY = 'bench-backfill-key-0123456789abcdef';

const loadBefore = loadAverage();
const progress = (line: string) => console.error(line);
const chain = POSTGRES
  ? await pgBackfillChain(BLOCKS, EVERY, progress)
  : await backfillChain(
      join(tmpdir(), `stackhooks-bench-backfill-${BLOCKS}-${EVERY}`),
      BLOCKS,
      EVERY,
      progress,
    );
if (args['build-only']) process.exit(0);
const READS = Math.min(200_000, BLOCKS);
let reads;
if (PHASES.has('reads') && 'archiveDir' in chain) {
  console.error(`reading ${READS} blocks both ways (load ${loadAverage()})`);
  reads = await compareReads(chain.archiveDir, READS, EVERY);
}

// A fresh data folder each run, its archive the cached one: the hooks and backfills start empty.
// On PostgreSQL the schema is the cached one, and the run's hooks are deleted at its end.
const dataDir = await mkdtemp(join(tmpdir(), 'stackhooks-bench-backfill-run-'));
if ('archiveDir' in chain) await symlink(chain.archiveDir, join(dataDir, 'archive'));
const received = { backfill: 0, live: 0 };
/** When (performance.now()) the live hook's payload of each height arrived. */
const liveArrivedAt = new Map<number, number>();
const receiver = createServer((req, res) => {
  const backfill = req.headers['stackhooks-backfill-id'] !== undefined;
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => {
    if (!backfill) chunks.push(chunk);
  });
  req.on('end', () => {
    const at = performance.now();
    if (backfill) received.backfill++;
    else {
      received.live++;
      const height = JSON.parse(Buffer.concat(chunks).toString()).event.apply[0]?.block_identifier.index;
      if (typeof height === 'number' && !liveArrivedAt.has(height)) liveArrivedAt.set(height, at);
    }
    res.writeHead(200).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
const observerPort = String(await freePort());
const server = await spawnServer({
  STACKHOOKS_DATA_DIR: dataDir,
  STACKHOOKS_API_KEY: KEY,
  STACKHOOKS_OBSERVER_PORT: observerPort,
  STACKHOOKS_RATE_LIMIT_PER_MINUTE: '1000000',
  STACKHOOKS_LOG_LEVEL: 'warn',
  // Delivered bodies are kept for redelivery (an hour by default); a short window keeps them out of
  // the RSS, so that it shows the scan's own memory.
  STACKHOOKS_DELIVERED_BODY_RETENTION: '10s',
  STACKHOOKS_DELIVERY_RETENTION: args['delivery-retention'],
  ...('url' in chain && { STACKHOOKS_DATABASE_URL: chain.url }),
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function api(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${server.baseUrl}/chainhooks/v1${path}`, {
    method,
    headers: { 'x-api-key': KEY, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await res.json();
  if (res.status >= 400)
    throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(answer)}`);
  return answer;
}

const hooks: string[] = [];
/** A hook on `filter` to the receiver: live (enabled) only when asked, else for backfills alone. */
async function register(filter: object, live = false): Promise<string> {
  const { uuid } = await api(
    'POST',
    '/me',
    sampleDefinition({
      filters: { events: [filter as never] },
      action: { type: 'http_post', url: target },
      options: { enable_on_registration: live },
    }),
  );
  hooks.push(uuid);
  return uuid;
}

const sampler = serverSampler(server.child.pid!);

/** Run one backfill to its end, sampling the server meanwhile. */
async function scan(hook: string, from: number, to: number): Promise<ScanRun> {
  const before = sampler.sample();
  const rss: number[] = [before.rssMb];
  const created = await api('POST', `/me/${hook}/backfills`, {
    from_block_height: from,
    to_block_height: to,
  });
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    rss.push(sampler.sample().rssMb);
    if (rss.length % 20 === 0) console.error(`  RSS ${rss.at(-1)!.toFixed(0)} MB`);
    const record = await api('GET', `/me/${hook}/backfills/${created.id}`);
    if (!['queued', 'running'].includes(record.state)) {
      const after = sampler.sample();
      const seconds = (record.finished_at - record.started_at) / 1000;
      return { record, seconds, cpuSeconds: after.cpuSeconds - before.cpuSeconds, rss };
    }
  }
}

/**
 * The status route timed every 200 ms: it writes nothing, so its time is the server's event loop
 * and CPU alone, where an observer POST also waits for the event log's fsync.
 */
function statusProbe(): { stop(): Promise<number[]> } {
  let stopped = false;
  const run = async () => {
    const times: number[] = [];
    while (!stopped) {
      const start = performance.now();
      await (await fetch(`${server.baseUrl}/chainhooks/v1`)).arrayBuffer();
      times.push(performance.now() - start);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return times;
  };
  const running = run();
  return {
    stop() {
      stopped = true;
      return running;
    },
  };
}

try {
  const selective = await register({ type: 'ft_transfer', asset_identifier: RARE_ASSET });
  const dense = await register({ type: 'stx_transfer' });
  // Live only: it matches the stand-in node's blocks and no archived one.
  await register({ type: 'stx_transfer', receiver: LIVE_RECIPIENT }, true);
  if (POSTGRES) await checkpointDatabase();
  const status = await api('GET', '');
  const poster = await observerPoster(
    `http://127.0.0.1:${observerPort}/new_block`,
    status.chain_tip,
    Number(args['post-ms']),
  );

  console.error(`selective scan of ${BLOCKS} blocks (load ${loadAverage()})`);
  const alone = PHASES.has('alone') ? await scan(selective, 1, BLOCKS) : undefined;
  let baseline: number[] = [];
  let duringScan: number[] = [];
  let statusBaseline: number[] = [];
  let statusDuring: number[] = [];
  let liveBaseline;
  let liveDuring;
  let withPosts: ScanRun | undefined;
  if (PHASES.has('observer')) {
    console.error(`observer baseline (load ${loadAverage()})`);
    const probing = statusProbe();
    const before = await poster.postFor(100);
    statusBaseline = await probing.stop();
    baseline = before.latencies;
    console.error(`selective scan with observer posts (load ${loadAverage()})`);
    const posting = poster.postUntilStopped();
    const probingDuring = statusProbe();
    withPosts = await scan(selective, 1, BLOCKS);
    const during = await posting.stop();
    statusDuring = await probingDuring.stop();
    duringScan = during.latencies;
    // The last blocks' webhooks may still be on their way.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    liveBaseline = liveLatencies(before.heights, poster.answeredAt, liveArrivedAt);
    liveDuring = liveLatencies(during.heights, poster.answeredAt, liveArrivedAt);
  }
  console.error(`dense scan of ${DENSE} blocks (load ${loadAverage()})`);
  const denseRun = PHASES.has('dense') ? await scan(dense, 1, DENSE) : undefined;

  console.log(
    renderBackfillReport({
      machine: machineLine(),
      loadBefore,
      loadAfter: loadAverage(),
      blocks: BLOCKS,
      every: EVERY,
      dense: DENSE,
      alone,
      withPosts,
      denseRun,
      baseline,
      duringScan,
      received,
      reads: reads && { ...reads, count: READS },
      statusBaseline,
      statusDuring,
      liveBaseline,
      liveDuring,
      store: POSTGRES ? 'postgres' : 'embedded',
    }),
  );
} finally {
  // The cached schema outlives the run: what the run registered goes with it.
  if (POSTGRES) {
    for (const uuid of hooks) {
      await fetch(`${server.baseUrl}/chainhooks/v1/me/${uuid}`, {
        method: 'DELETE',
        headers: { 'x-api-key': KEY },
      });
    }
  }
  server.child.kill('SIGTERM');
  await server.exited;
  receiver.close();
  await rm(dataDir, { recursive: true, force: true });
}
