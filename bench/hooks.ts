// Hooks at scale through the REST API, on the embedded store and on Postgres, in one run.
// Registration: hooks registered with 64 requests in flight up to each level (1k, 10k, 50k, 100k),
// then single registrations one at a time (p50/p99) and pages of GET /me at the first, middle and
// last offset, then the server's memory. Intake: at the last level, one block to the observer (it
// loads the matcher's index of every hook), then blocks posted at 5/s while one hook is registered
// every 100 ms: the observer's answer times, the main event loop's longest delay meanwhile, and the
// server's memory after it (the index now loaded).
//
// Where the server runs (--server) and where each column comes from:
// - in-process (the default): the server in this process. Memory is this process's
//   (`process.memoryUsage()`: server and client together, and before the server started: Node, tsx
//   and the code); the event-loop delay is `monitorEventLoopDelay` here (5 ms resolution).
// - built: `stackhooks serve` from the compiled package (built first, as `npm run build` does), as
//   an installed package runs it, in a process of its own; sources: the same from the TypeScript
//   sources through tsx. RSS and its peak per level are the kernel's (/proc/<pid>/status VmRSS,
//   VmHWM reset through clear_refs after each reading); the main thread's heap in use, memory
//   outside the heap and the event-loop delay (10 ms resolution) are the server's /metrics
//   (`nodejs_heap_size_used_bytes`, `nodejs_external_memory_bytes`,
//   `nodejs_eventloop_lag_max_seconds`); the first row's memory is the server started on an empty
//   store. Stop ms is SIGTERM to the process's exit.
// Timings (registrations, pages, observer answers) are the bench client's in either mode.
// Run: npx tsx bench/hooks.ts [--stores lowdb,postgres] [--levels 1000,10000,50000,100000]
//        [--samples 200] [--intake-seconds 30] [--server in-process|built|sources]
//        (prints Markdown; progress on stderr)
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { transferBlocks } from './support/deliver-hooks.js';
import { BenchClient, percentile } from './support/hooks-load.js';
import {
  printHooksReport,
  memoryText,
  type Intake,
  type Level,
  type StoreRun,
} from './support/hooks-report.js';
import {
  memoryOfThisProcess,
  startHooksServer,
  type HooksServer,
  type ServerPlace,
} from './support/hooks-server.js';
import { benchDatabaseAnswers, dropBenchSchema, freshBenchSchema } from './support/pg-schema.js';
import { fmt } from './support/report.js';

const { values } = parseArgs({
  options: {
    stores: { type: 'string', default: 'lowdb,postgres' },
    levels: { type: 'string', default: '1000,10000,50000,100000' },
    samples: { type: 'string', default: '200' },
    'intake-seconds': { type: 'string', default: '30' },
    server: { type: 'string', default: 'in-process' },
  },
});
const PLACE = values.server as ServerPlace;
if (!['in-process', 'built', 'sources'].includes(PLACE)) throw new Error(`unknown --server ${PLACE}`);
const STORES = values.stores.split(',') as ('lowdb' | 'postgres')[];
const LEVELS = values.levels.split(',').map(Number);
const SAMPLES = Number(values.samples);
const INTAKE_SECONDS = Number(values['intake-seconds']);
const IN_FLIGHT = 64;
const PAGE = 20;

async function runStore(store: 'lowdb' | 'postgres'): Promise<StoreRun> {
  const dataDir = await mkdtemp(join(tmpdir(), 'stackhooks-bench-hooks-'));
  const schema = store === 'postgres' ? freshBenchSchema() : undefined;
  const before = PLACE === 'in-process' ? await memoryOfThisProcess() : undefined;
  const server = await startHooksServer(PLACE, dataDir, {
    STACKHOOKS_MAX_HOOKS_PER_OWNER: '10000000',
    STACKHOOKS_RATE_LIMIT_PER_MINUTE: '10000000',
    ...(schema && { STACKHOOKS_DATABASE_URL: schema.url }),
  });
  // Read at once in its own process: the server started, and the peak reset for the first level.
  const start = before ?? (await server.memory());
  if (server.pid !== undefined) console.error(`${store}: the server is process ${server.pid}`);
  const client = new BenchClient(server.apiPort, server.apiKey, IN_FLIGHT);
  try {
    let count = 0;
    const levels: Level[] = [];
    for (const hooks of LEVELS) {
      const rate = await client.registerMany(count, hooks - SAMPLES, IN_FLIGHT);
      count = hooks - SAMPLES;
      const singles: number[] = [];
      while (count < hooks) singles.push((await client.register(count++)).ms);
      const pages: number[] = [];
      for (const offset of [0, Math.floor(hooks / 2), hooks - PAGE]) {
        const times: number[] = [];
        for (let i = 0; i < 11; i++) {
          const page = await client.request('GET', `/chainhooks/me?offset=${offset}&limit=${PAGE}`);
          if (page.status !== 200) throw new Error(`GET /me answered ${page.status}`);
          times.push(page.ms);
        }
        pages.push(percentile(times, 0.5));
      }
      const level = {
        hooks,
        rate,
        p50: percentile(singles, 0.5),
        p99: percentile(singles, 0.99),
        pages,
        memory: await server.memory(),
      };
      levels.push(level);
      console.error(
        `${store} ${hooks}: ${fmt(rate)} reg/s, single p50 ${fmt(level.p50, 1)} p99 ${fmt(level.p99, 1)} ms, ` +
          `pages ${pages.map((ms) => fmt(ms, 1)).join('/')} ms, ${memoryText(level.memory)}`,
      );
    }
    const intake = await intakeWhileWriting(client, server, count);
    console.error(`${store} intake: ${JSON.stringify(intake)}`);
    const stopping = performance.now();
    await server.stop();
    return {
      store,
      start,
      levels,
      intake,
      stopMs: performance.now() - stopping,
      errors: server.errorCount(),
    };
  } finally {
    client.close();
    await server.stop().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
    if (schema) await dropBenchSchema(schema.schema);
  }
}

/** Blocks at 5/s to the observer while a hook is registered every 100 ms, for INTAKE_SECONDS. */
async function intakeWhileWriting(client: BenchClient, server: HooksServer, from: number): Promise<Intake> {
  const observerPort = server.observerPort;
  const [first, ...blocks] = await transferBlocks(INTAKE_SECONDS * 5 + 1, 'bench-hooks');
  // The first block loads the matcher's index of every hook (once a process): timed on its own.
  const warmUp = await client.request('POST', '/new_block', JSON.stringify(first), observerPort);
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const bodies = blocks.map((block) => JSON.stringify(block));
  const longestDelay = await server.watchLoop();
  const start = performance.now();
  const at = (ms: number) =>
    new Promise((resolve) => setTimeout(resolve, Math.max(0, start + ms - performance.now())));
  const posts: number[] = [];
  const writes: number[] = [];
  let next = from;
  let writing = true;
  const writer = (async () => {
    for (let i = 1; writing; i++) {
      writes.push((await client.register(next++)).ms);
      await at(i * 100);
    }
  })();
  await Promise.all(
    bodies.map(async (body, i) => {
      await at(i * 200);
      const answer = await client.request('POST', '/new_block', body, observerPort);
      if (answer.status !== 200) throw new Error(`the observer answered ${answer.status}`);
      posts.push(answer.ms);
    }),
  );
  writing = false;
  await writer;
  const loopMaxMs = await longestDelay();
  return {
    firstMs: warmUp.ms,
    posts: posts.length,
    p50: percentile(posts, 0.5),
    p99: percentile(posts, 0.99),
    max: Math.max(...posts),
    writesP99: percentile(writes, 0.99),
    loopMaxMs,
    memory: await server.memory(),
  };
}

if (STORES.includes('postgres') && !(await benchDatabaseAnswers())) {
  console.error('PostgreSQL does not answer at 127.0.0.1:5432 (database test)');
  process.exit(2);
}
const loadBefore = loadavg();
const runs: StoreRun[] = [];
for (const store of STORES) runs.push(await runStore(store));
const loadAfter = loadavg();

printHooksReport(runs, { place: PLACE, levels: LEVELS, inFlight: IN_FLIGHT, loadBefore, loadAfter });
