// Hooks at scale through the REST API, on the embedded store and on Postgres, in one run.
// Registration: hooks registered with 64 requests in flight up to each level (1k, 10k, 50k, 100k),
// then single registrations one at a time (p50/p99) and pages of GET /me at the first, middle and
// last offset; the RSS of this process (server and client) at each level, and before the server
// started (Node, tsx and the code, no store). Intake: at the last level, blocks posted to the
// observer at 5/s while one hook is registered every 100 ms: the observer's answer times, and the
// event loop's longest delay meanwhile.
// Run: npx tsx bench/hooks.ts [--stores lowdb,postgres] [--levels 1000,10000,50000,100000]
//        [--samples 200] [--intake-seconds 30]   (prints Markdown; progress on stderr)
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { startBenchServer } from './support/bench-server.js';
import { transferBlocks } from './support/deliver-hooks.js';
import { BenchClient, percentile } from './support/hooks-load.js';
import { benchDatabaseAnswers, dropBenchSchema, freshBenchSchema } from './support/pg-schema.js';
import { fmt, markdownTable, met } from './support/report.js';

const { values } = parseArgs({
  options: {
    stores: { type: 'string', default: 'lowdb,postgres' },
    levels: { type: 'string', default: '1000,10000,50000,100000' },
    samples: { type: 'string', default: '200' },
    'intake-seconds': { type: 'string', default: '30' },
  },
});
const STORES = values.stores.split(',') as ('lowdb' | 'postgres')[];
const LEVELS = values.levels.split(',').map(Number);
const SAMPLES = Number(values.samples);
const INTAKE_SECONDS = Number(values['intake-seconds']);
const IN_FLIGHT = 64;
const PAGE = 20;

type Level = {
  hooks: number;
  rate: number;
  p50: number;
  p99: number;
  /** Median ms of a page at the first, middle and last offset. */
  pages: number[];
  rssMiB: number;
};
type Intake = {
  firstMs: number;
  posts: number;
  p50: number;
  p99: number;
  max: number;
  writesP99: number;
  loopMaxMs: number;
};
type StoreRun = {
  store: string;
  /** RSS before the server started: Node, tsx and the code loaded, no store open. */
  rssBeforeMiB: number;
  levels: Level[];
  intake: Intake;
  stopMs: number;
  errors: number;
};

const MiB = 1024 * 1024;

async function runStore(store: 'lowdb' | 'postgres'): Promise<StoreRun> {
  const dataDir = await mkdtemp(join(tmpdir(), 'stackhooks-bench-hooks-'));
  const schema = store === 'postgres' ? freshBenchSchema() : undefined;
  const key = `bench-${randomBytes(16).toString('hex')}`;
  const errors: string[] = [];
  const rssBeforeMiB = process.memoryUsage().rss / MiB;
  const server = await startBenchServer({
    dataDir,
    errors,
    env: {
      STACKHOOKS_API_KEY: key,
      STACKHOOKS_MAX_HOOKS_PER_OWNER: '10000000',
      STACKHOOKS_RATE_LIMIT_PER_MINUTE: '10000000',
      ...(schema && { STACKHOOKS_DATABASE_URL: schema.url }),
    },
  });
  const client = new BenchClient(server.port, key, IN_FLIGHT);
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
        rssMiB: process.memoryUsage().rss / MiB,
      };
      levels.push(level);
      console.error(
        `${store} ${hooks}: ${fmt(rate)} reg/s, single p50 ${fmt(level.p50, 1)} p99 ${fmt(level.p99, 1)} ms, ` +
          `pages ${pages.map((ms) => fmt(ms, 1)).join('/')} ms, RSS ${fmt(level.rssMiB)} MiB`,
      );
    }
    const intake = await intakeWhileWriting(client, server.observerPort, count);
    console.error(`${store} intake: ${JSON.stringify(intake)}`);
    const stopping = performance.now();
    await server.stop();
    return {
      store,
      rssBeforeMiB,
      levels,
      intake,
      stopMs: performance.now() - stopping,
      errors: errors.length,
    };
  } finally {
    client.close();
    await server.stop().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
    if (schema) await dropBenchSchema(schema.schema);
  }
}

/** Blocks at 5/s to the observer while a hook is registered every 100 ms, for INTAKE_SECONDS. */
async function intakeWhileWriting(client: BenchClient, observerPort: number, from: number): Promise<Intake> {
  const [first, ...blocks] = await transferBlocks(INTAKE_SECONDS * 5 + 1, 'bench-hooks');
  // The first block loads the matcher's index of every hook (once a process): timed on its own.
  const warmUp = await client.request('POST', '/new_block', JSON.stringify(first), observerPort);
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const bodies = blocks.map((block) => JSON.stringify(block));
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
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
  loop.disable();
  return {
    firstMs: warmUp.ms,
    posts: posts.length,
    p50: percentile(posts, 0.5),
    p99: percentile(posts, 0.99),
    max: Math.max(...posts),
    writesP99: percentile(writes, 0.99),
    loopMaxMs: loop.max / 1e6,
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

const last = LEVELS.at(-1)!;
console.log(
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}; load average`,
);
console.log(
  `${loadBefore.map((l) => l.toFixed(2)).join(' ')} before, ${loadAfter.map((l) => l.toFixed(2)).join(' ')} after.\n`,
);
console.log(
  markdownTable(
    [
      'store',
      'hooks',
      `registrations/s (${IN_FLIGHT} in flight)`,
      'single p50 ms',
      'single p99 ms',
      'GET /me p50 ms (first / middle / last page)',
      'RSS MiB (before the server started)',
    ],
    runs.flatMap((run) =>
      run.levels.map((level) => [
        run.store,
        fmt(level.hooks),
        fmt(level.rate),
        fmt(level.p50, 1),
        fmt(level.p99, 1),
        level.pages.map((ms) => fmt(ms, 1)).join(' / '),
        `${fmt(level.rssMiB)} (${fmt(run.rssBeforeMiB)})`,
      ]),
    ),
  ),
);
console.log();
console.log(
  markdownTable(
    [
      'store',
      `p99 at ${fmt(last)} ≤ 10 ms`,
      `p50 ${fmt(last)} ÷ ${fmt(LEVELS[0])} ≤ 2`,
      `RSS at ${fmt(last)} ≤ 400 MiB (embedded)`,
    ],
    runs.map((run) => {
      const [first, top] = [run.levels[0], run.levels.at(-1)!];
      const ratio = top.p50 / first.p50;
      return [
        run.store,
        `${fmt(top.p99, 1)} ${met(top.p99 <= 10)}`,
        `${fmt(ratio, 2)} ${met(ratio <= 2)}`,
        run.store === 'lowdb' ? `${fmt(top.rssMiB)} ${met(top.rssMiB <= 400)}` : '—',
      ];
    }),
  ),
);
console.log();
console.log(
  markdownTable(
    [
      'store',
      'first block ms',
      'blocks posted (5/s)',
      'observer POST p50 ms',
      'observer POST p99 ms (≤ 20)',
      'max ms',
      'registration p99 ms meanwhile',
      'longest event-loop delay ms',
      'stop ms',
      'error lines',
    ],
    runs.map((run) => [
      run.store,
      fmt(run.intake.firstMs),
      fmt(run.intake.posts),
      fmt(run.intake.p50, 1),
      `${fmt(run.intake.p99, 1)} ${met(run.intake.p99 <= 20)}`,
      fmt(run.intake.max, 1),
      fmt(run.intake.writesP99, 1),
      fmt(run.intake.loopMaxMs, 1),
      fmt(run.stopMs),
      fmt(run.errors),
    ]),
  ),
);
