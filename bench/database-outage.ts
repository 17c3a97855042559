// What a database outage costs a running server (role all), measured as an operator would: blocks
// posted as a node posts them (in order, each retried until a 200) at a steady rate, 3 hooks
// matching every block, and the database taken away mid-stream by a cut of every connection (a
// loopback proxy), a fast restart and a crash-like stop of a private PostgreSQL cluster, and
// sessions terminated every 2 s. For each: how long after the database's return the observer
// accepted blocks again, block processing was active again and the block the node was holding was
// processed; how long after the node's last post every payload was delivered; and whether any
// payload was lost or the process exited.
// Run: npx tsx bench/database-outage.ts   (about 3 minutes; prints Markdown; exits 2 without PostgreSQL)
import { execFileSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { TEST_API_KEY } from '../test/support/api-server.js';
import {
  NodePoster,
  callApi,
  deliveredHeights,
  registerTransferHooks,
  transferChain,
} from '../test/support/outage-drill.js';
import {
  dropSchema,
  freshSchemaUrl,
  postgresAvailable,
  TEST_DATABASE_URL,
} from '../test/support/postgres.js';
import { startPrivatePostgres } from '../test/support/private-postgres.js';
import { freePort, spawnServer, type ServerProcess } from '../test/support/server-process.js';
import { startTcpProxy } from '../test/support/tcp-proxy.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import { startTestReceiver } from '../test/support/test-receiver.js';
import { loadAverage, machineLine } from './support/measure.js';

const BLOCKS = 120;
const POST_EVERY_MS = 100;
const HOOKS = 3;

type Row = {
  event: string;
  downMs: number;
  observerBackMs?: number;
  activeMs?: number;
  /** Until the block the node was holding at the return is processed. */
  nextProcessedMs?: number;
  /** From the node's last acknowledged post until every payload is delivered. */
  drainedMs?: number;
  lost: number;
  exited: boolean;
};

if (!(await postgresAvailable())) {
  console.error(`PostgreSQL does not answer at ${TEST_DATABASE_URL}`);
  process.exit(2);
}

/** Milliseconds from `since` to the first log line at or after it with `msg`, if any. */
function logLineAfter(server: ServerProcess, msg: string, since: number): number | undefined {
  for (const line of server.output().split('\n')) {
    if (!line.includes(`"msg":"${msg}"`)) continue;
    const at = Date.parse((JSON.parse(line) as { time: string }).time);
    if (at >= since) return at - since;
  }
  return undefined;
}

/** Run one outage: `takeAway` removes the database and returns once it is back (resolving `back`'s time). */
async function measure(
  event: string,
  databaseUrl: string,
  takeAway: (state: { acknowledged: () => number }) => Promise<{ downMs: number; backAt: number }>,
): Promise<Row> {
  const receiver = await startTestReceiver();
  const observerPort = await freePort();
  const server = await spawnServer({
    STACKHOOKS_DATABASE_URL: databaseUrl,
    STACKHOOKS_DATA_DIR: await makeTempDir(),
    STACKHOOKS_API_KEY: TEST_API_KEY,
    STACKHOOKS_OBSERVER_PORT: String(observerPort),
    STACKHOOKS_DELIVERY_LEASE: '3s',
    STACKHOOKS_DELIVERY_TIMEOUT: '2s',
  });
  try {
    const paths = await registerTransferHooks(server.baseUrl, receiver, HOOKS);
    const blocks = await transferChain(BLOCKS);
    const node = new NodePoster(() => observerPort);
    const posting = node.post(blocks, POST_EVERY_MS);
    const { downMs, backAt } = await takeAway({ acknowledged: () => node.acknowledged.length });
    const backIndex = node.answers.length;
    // The block the node was holding when the database came back: the first one posted after it.
    const next = blocks[Math.min(node.acknowledged.length, BLOCKS - 1)].block_height;
    let observerBackMs: number | undefined;
    let nextProcessedMs: number | undefined;
    let lastPostAt: number | undefined;
    let drainedMs: number | undefined;
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline && drainedMs === undefined) {
      if (observerBackMs === undefined && node.answers.slice(backIndex).some((a) => a.status === 200))
        observerBackMs = Date.now() - backAt;
      if (nextProcessedMs === undefined) {
        const status = await readStatus(server.baseUrl);
        if ((status?.chain_tip?.block_height ?? 0) >= next) nextProcessedMs = Date.now() - backAt;
      }
      if (lastPostAt === undefined && node.acknowledged.length === BLOCKS) lastPostAt = Date.now();
      const delivered = deliveredHeights(receiver);
      if (lastPostAt !== undefined && paths.every((p) => (delivered.get(p)?.length ?? 0) >= BLOCKS))
        drainedMs = Date.now() - lastPostAt;
      await sleep(50);
    }
    await posting;
    const delivered = deliveredHeights(receiver);
    const lost = paths.reduce((sum, p) => sum + (BLOCKS - new Set(delivered.get(p) ?? []).size), 0);
    return {
      event,
      downMs,
      observerBackMs,
      activeMs: logLineAfter(server, 'block processing active', backAt),
      nextProcessedMs,
      drainedMs,
      lost,
      exited: server.child.exitCode !== null,
    };
  } finally {
    if (server.child.exitCode === null) server.child.kill('SIGTERM');
    await server.exited;
    await receiver.close();
  }
}

/** The status route, asked again while it answers 503. */
async function readStatus(baseUrl: string): Promise<{ chain_tip?: { block_height: number } } | undefined> {
  const res = await callApi(baseUrl, 'GET', '/chainhooks/v1').catch(() => undefined);
  return res?.body;
}

const untilAcknowledged = async (state: { acknowledged: () => number }, count: number) => {
  while (state.acknowledged() < count) await sleep(20);
};

const rows: Row[] = [];
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
const loadBefore = loadAverage();
const shared = new URL(TEST_DATABASE_URL);

for (const seconds of [3, 10]) {
  const proxy = await startTcpProxy({ host: shared.hostname, port: Number(shared.port || 5432) });
  const url = freshSchemaUrl('bench_cut');
  try {
    rows.push(
      await measure(`connection cut, ${seconds} s`, proxy.via(url), async (state) => {
        await untilAcknowledged(state, 30);
        const cutAt = Date.now();
        await proxy.cut();
        await sleep(seconds * 1000);
        await proxy.mend();
        return { downMs: Date.now() - cutAt, backAt: Date.now() };
      }),
    );
  } finally {
    await proxy.close();
    await dropSchema(url);
  }
}

const cluster = await startPrivatePostgres();
if ('skipped' in cluster) console.error(`private cluster rows skipped: ${cluster.skipped}`);
else {
  try {
    rows.push(
      await measure('PostgreSQL fast restart', cluster.url('bench_restart'), async (state) => {
        await untilAcknowledged(state, 30);
        const at = Date.now();
        await cluster.restart();
        return { downMs: Date.now() - at, backAt: Date.now() };
      }),
    );
    rows.push(
      await measure('PostgreSQL crash, up 10 s later', cluster.url('bench_crash'), async (state) => {
        await untilAcknowledged(state, 30);
        const at = Date.now();
        await cluster.crash();
        await sleep(10_000);
        await cluster.start();
        return { downMs: Date.now() - at, backAt: Date.now() };
      }),
    );
  } finally {
    await cluster.destroy();
  }
}

{
  const url = freshSchemaUrl('bench_kill');
  const schema = new URL(url).searchParams.get('schema')!;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    rows.push(
      await measure('sessions terminated every 2 s for 10 s', url, async (state) => {
        await untilAcknowledged(state, 30);
        let lastKill = Date.now();
        for (let i = 0; i < 5; i++) {
          if (i > 0) await sleep(2_000);
          lastKill = Date.now();
          await admin.query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
             WHERE application_name LIKE 'stackhooks %' AND right(application_name, length($1) + 1) = ' ' || $1`,
            [schema],
          );
        }
        // Each kill is its own short outage: times count from the last one.
        return { downMs: 0, backAt: lastKill };
      }),
    );
  } finally {
    await admin.end();
    await dropSchema(url);
  }
}

const ms = (value: number | undefined) => (value === undefined ? 'never' : (value / 1000).toFixed(1));
console.log(`Machine: ${machineLine()}`);
console.log(`Commit ${commit}; load average ${loadBefore} at the start, ${loadAverage()} at the end.`);
console.log(
  `${BLOCKS} blocks posted as a node does, one every ${POST_EVERY_MS} ms, ${HOOKS} hooks matching each. ` +
    `Seconds after the database's return (after the last kill for the terminated sessions), except the ` +
    `last timing: from the node's last acknowledged post until every payload was delivered.\n`,
);
console.log(
  '| event | down, s | observer accepts again | processing active again | held block processed | all delivered after the last post | payloads lost | process exited |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
for (const row of rows) {
  console.log(
    `| ${row.event} | ${ms(row.downMs)} | ${ms(row.observerBackMs)} | ${ms(row.activeMs)} | ` +
      `${ms(row.nextProcessedMs)} | ${ms(row.drainedMs)} | ${row.lost} | ${row.exited ? 'yes' : 'no'} |`,
  );
}
