// Backfill speed (docs/benchmarks.md): the real server as its own process, on an embedded archive
// of 1,000,000 synthetic blocks (bench/support/backfill-chain.ts, built once and kept under /tmp),
// scanned through the API. Measured: the archive read and matched in this process one height at a
// time and as ranges; a selective hook (1 block in 2,000 matches) over the whole archive, alone and
// again while a stand-in node posts a block to the observer every 200 ms (the observer POST's and
// the status route's latency, with baselines taken before any scan); a hook matching every block
// over the first 20,000 (delivery-limited); the server's RSS and CPU over each scan.
// Run: flock /tmp/stackhooks-bench.lock npx tsx bench/backfill.ts [--blocks N] [--every K]
//        [--dense N] [--post-ms MS] [--phases reads,alone,observer,dense] [--delivery-retention D] [--build-only]
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
import { serverSampler, type ScanRun, observerPoster, renderBackfillReport } from './support/backfill-run.js';
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
  },
});
const PHASES = new Set(args.phases.split(','));
const BLOCKS = Number(args.blocks);
const EVERY = Number(args.every);
const DENSE = Math.min(Number(args.dense), BLOCKS);
const KEY = 'bench-backfill-key-0123456789abcdef';

const loadBefore = loadAverage();
const chain = await backfillChain(
  join(tmpdir(), `stackhooks-bench-backfill-${BLOCKS}-${EVERY}`),
  BLOCKS,
  EVERY,
  (line) => console.error(line),
);
if (args['build-only']) process.exit(0);
const READS = Math.min(200_000, BLOCKS);
console.error(`reading ${READS} blocks both ways (load ${loadAverage()})`);
const reads = PHASES.has('reads') ? await compareReads(chain.archiveDir, READS, EVERY) : undefined;

// A fresh data folder each run, its archive the cached one: the hooks and backfills start empty.
const dataDir = await mkdtemp(join(tmpdir(), 'stackhooks-bench-backfill-run-'));
await symlink(chain.archiveDir, join(dataDir, 'archive'));
const received = { backfill: 0, live: 0 };
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (req.headers['stackhooks-backfill-id']) received.backfill++;
    else received.live++;
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

const register = async (filter: object): Promise<string> =>
  (
    await api(
      'POST',
      '/me',
      sampleDefinition({
        filters: { events: [filter as never] },
        action: { type: 'http_post', url: target },
        options: { enable_on_registration: false },
      }),
    )
  ).uuid;

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
  let withPosts: ScanRun | undefined;
  if (PHASES.has('observer')) {
    console.error(`observer baseline (load ${loadAverage()})`);
    const probing = statusProbe();
    baseline = await poster.postFor(100);
    statusBaseline = await probing.stop();
    console.error(`selective scan with observer posts (load ${loadAverage()})`);
    const posting = poster.postUntilStopped();
    const probingDuring = statusProbe();
    withPosts = await scan(selective, 1, BLOCKS);
    duringScan = await posting.stop();
    statusDuring = await probingDuring.stop();
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
    }),
  );
} finally {
  server.child.kill('SIGTERM');
  await server.exited;
  receiver.close();
  await rm(dataDir, { recursive: true, force: true });
}
