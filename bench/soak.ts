// Soak: the real server, its own process (`stackhooks serve` from the sources, as `npm start` runs
// it), run for minutes at a steady load, its cost printed per window. 5,000 hooks registered
// through the REST API, 2% of them matching every block (stx events); blocks posted to the observer
// at a steady rate, copies of the recorded 63-transaction block (poisonmicroblock.tsv): 1 in 10
// whole, the others cut to its first few transactions that move STX (so every block matches the
// matching hooks: the block's first transactions have no events at all) and their events; every
// receiver (one child process) answers 200 after 10 ms. Each window prints the server process's
// RSS (at the window's end and its peak in the window, from /proc) and its main thread's V8 heap
// in use (its /metrics), the disk of each part (archive, event log, outbox bodies, settled log
// records, delivery log), how often the embedded outbox's journal was rewritten, the age of the
// oldest payload one matching hook's delivery log still lists (its REST API), the longest pause of
// the server's main event loop (its /metrics), the observer's POST p50/p99 (timed by a poster
// process of its own, as a node's thread would see them) beside the server's own measure of the
// same posts (its /metrics: the bucket its p99 is under, the posts over 50 ms) and of their appends
// to the event log (the store's part of that time, the same way), delivery p50/p99
// (block posted → its webhook received) and the payloads pending (its /metrics). At the end it
// waits for the webhooks still due, counts any missing, and prints the figures over all windows
// against the targets.
//
// With `--heap-snapshots DIR` the server writes a snapshot of its main thread's heap (after a full
// collection) into DIR at each of the minutes `--snapshot-at` lists; `bench/heap-compare.ts`
// compares two of them. A snapshot stops the server's main thread for seconds (the observer's
// thread still answers), so such a run's latencies are not the server's.
//
// Run: npx tsx bench/soak.ts [--minutes N] [--store embedded|postgres] [--window-seconds 30]
//   [--retention 5m] [--body-retention 1m] [--rate 3] [--hooks 5000] [--server built|sources]
//   [--heap-snapshots DIR --snapshot-at 6,12]
// (Postgres: STACKHOOKS_TEST_DATABASE_URL or the local server, in a fresh schema.)
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { dataFolders } from '../apps/server/data-folders.js';
import type { NodeBlock } from '../core/stacks-codec/node-block.js';
import { busyCopy, readFirstNodeBlock } from './support/busy-blocks.js';
import { matchingDefinition, nonMatchingDefinition } from './support/deliver-hooks.js';
import { machineLine } from './support/measure.js';
import { startSoakPoster } from './support/soak-poster.js';
import { startSoakServer } from './support/soak-server.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const fixtures = process.env.STACKHOOKS_FIXTURES ?? resolve(root, '../shared/fixtures');
const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '2' },
    store: { type: 'string', default: 'embedded' },
    'window-seconds': { type: 'string', default: '30' },
    retention: { type: 'string', default: '5m' },
    'body-retention': { type: 'string', default: '1m' },
    rate: { type: 'string', default: '3' },
    hooks: { type: 'string', default: '5000' },
    // built: the compiled package (`npm run build`, then `stackhooks serve` as an installed package
    // runs it); sources: `npm start`'s way, TypeScript compiled as it loads (about 55 MiB more).
    server: { type: 'string', default: 'built' },
    'heap-snapshots': { type: 'string' },
    'snapshot-at': { type: 'string', default: '6,12' },
  },
});
const minutes = Number(values.minutes);
const windowMs = Number(values['window-seconds']) * 1000;
const rate = Number(values.rate);
const hookCount = Number(values.hooks);
const matching = Math.round(hookCount * 0.02);
const SMALL_TXS = 4;
const snapshotDir = values['heap-snapshots'] && resolve(values['heap-snapshots']);
const snapshotAt = snapshotDir ? values['snapshot-at']!.split(',').map(Number) : [];

// The receiver: its own process, so its work does not share the server's event loop.
const RECEIVER = `
  const http = require('node:http');
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const body = JSON.parse(Buffer.concat(chunks).toString());
      const height = body.event?.apply?.[0]?.block_identifier?.index;
      process.send({ height, at });
      setTimeout(() => res.end('ok'), 10);
    });
  });
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
`;

async function startReceiver(onArrival: (height: number, at: number) => void) {
  const child = spawn(process.execPath, ['-e', RECEIVER], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  process.once('exit', () => child.kill());
  const port = await new Promise<number>((done) =>
    child.on('message', (m: { port?: number; height?: number; at?: number }) => {
      if (m.port) done(m.port);
      else onArrival(m.height!, m.at!);
    }),
  );
  return { url: `http://127.0.0.1:${port}/hook`, stop: () => child.kill() };
}

/**
 * Copy `n` of the recorded block: whole every tenth, else its first few transactions that move STX
 * (renumbered from 0) and their events.
 */
function blockOf(template: NodeBlock, n: number): NodeBlock {
  const copy = busyCopy(template, n);
  if (n % 10 === 9) return copy;
  const moving = new Set(copy.events.filter((e) => e.type.startsWith('stx_')).map((e) => e.txid));
  const transactions = copy.transactions
    .filter((tx) => moving.has(tx.txid))
    .slice(0, SMALL_TXS)
    .map((tx, i) => ({ ...tx, tx_index: i }));
  const kept = new Set(transactions.map((tx) => tx.txid));
  return { ...copy, transactions, events: copy.events.filter((e) => kept.has(e.txid)) };
}

// The bench's never-matching mix, less coinbase and tenure-change hooks: every block has a coinbase.
function neverDefinition(i: number, url: string) {
  const definition = nonMatchingDefinition(i, url);
  const type = definition.filters.events[0].type;
  return type === 'coinbase' || type === 'tenure_change' ? nonMatchingDefinition(i + 2, url) : definition;
}

async function bytesUnder(path: string, match: (name: string) => boolean = () => true): Promise<number> {
  let total = 0;
  for (const entry of await readdir(path, { withFileTypes: true }).catch(() => [])) {
    const full = join(path, entry.name);
    if (entry.isDirectory()) total += await bytesUnder(full, match);
    else if (match(entry.name)) total += (await stat(full).catch(() => ({ size: 0 }))).size;
  }
  return total;
}

const MiB = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const pct = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

const POST_BUCKETS = [
  '0.001',
  '0.0025',
  '0.005',
  '0.01',
  '0.025',
  '0.05',
  '0.1',
  '0.25',
  '0.5',
  '1',
  '2.5',
  '5',
];

/**
 * The observer's times as the server measured them between two reads of its figures (the histogram
 * `name`: `stackhooks_observer_post_seconds` for a post, `stackhooks_event_log_append_seconds` for
 * its append): the bucket bound its p99 is under, and how many took over 50 ms. Beside the poster's
 * own times, they tell the server's part from the wire's, and the store's part of the server's.
 */
function serverObserver(before: Map<string, number>, after: Map<string, number>, name: string): string {
  const delta = (key: string) => (after.get(key) ?? 0) - (before.get(key) ?? 0);
  const count = delta(`${name}_count`);
  if (count === 0) return '-';
  const within = (le: string) => delta(`${name}_bucket{le="${le}"}`);
  const bound = POST_BUCKETS.find((le) => within(le) >= 0.99 * count);
  return `${bound === undefined ? '> 5000' : Number(bound) * 1000} / ${count - within('0.05')}`;
}

type Window = {
  rss: number;
  peak?: number;
  observerP99: number;
  deliveryP99: number;
  pause: number;
  oldest?: number;
};

/** The figures over every window, against the soak's targets. */
function summary(windows: Window[]): string {
  const max = (values: number[]) => Math.max(...values.filter(Number.isFinite));
  const over = (values: number[], limit: number) => values.filter((v) => v > limit).length;
  const highs = windows.map((w) => w.peak ?? w.rss);
  const observerP99 = windows.map((w) => w.observerP99);
  const deliveryP99 = windows.map((w) => w.deliveryP99);
  const rss = windows.some((w) => w.peak !== undefined) ? 'RSS (window peaks)' : 'RSS (at window ends)';
  return (
    `Over all ${windows.length} windows: ${rss} ${MiB(Math.min(...windows.map((w) => w.rss)))}-${MiB(max(highs))} MiB ` +
    `(${over(highs, 500 * 1024 * 1024)} windows over 500); ` +
    `observer p99 max ${max(observerP99)} ms (${over(observerP99, 50)} windows over 50); ` +
    `delivery p99 max ${max(deliveryP99)} ms (${over(deliveryP99, 1000)} over 1 s); ` +
    `loop pause max ${max(windows.map((w) => w.pause))} ms; ` +
    `oldest logged max ${max(windows.map((w) => w.oldest ?? NaN))} s.`
  );
}

async function main(): Promise<void> {
  const template = (await readFirstNodeBlock(join(fixtures, 'stacks-blockchain-api/poisonmicroblock.tsv')))
    .block;
  const dataDir = await mkdtemp(join(tmpdir(), 'stackhooks-soak-'));
  const postgres = values.store === 'postgres';
  let databaseUrl: string | undefined;
  if (postgres) {
    const url = new URL(
      process.env.STACKHOOKS_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    );
    url.searchParams.set('schema', `soak_${randomBytes(4).toString('hex')}`);
    databaseUrl = url.toString();
  }
  const postedAt = new Map<number, number>();
  const delivery: number[] = [];
  let received = 0;
  // Webhooks each block should bring: the matching hooks, for a block that moves STX (all do).
  let expected = 0;
  const receiver = await startReceiver((height, at) => {
    received++;
    const posted = postedAt.get(height);
    if (posted !== undefined) delivery.push(at - posted);
  });
  const server = await startSoakServer(values.server === 'sources' ? 'sources' : 'built', dataDir, {
    STACKHOOKS_MAX_HOOKS_PER_OWNER: String(hookCount),
    STACKHOOKS_DELIVERY_RETENTION: values.retention!,
    STACKHOOKS_DELIVERED_BODY_RETENTION: values['body-retention']!,
    ...(databaseUrl && { STACKHOOKS_DATABASE_URL: databaseUrl }),
    ...(snapshotDir && {
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${snapshotDir}`,
    }),
  });
  const poster = await startSoakPoster();
  await poster.post(server.observerUrl);
  let watched = '';
  for (let i = 0; i < hookCount; i++) {
    const uuid = await server.register(
      i < matching ? matchingDefinition(`match ${i}`, receiver.url) : neverDefinition(i, receiver.url),
    );
    if (i === 0) watched = uuid;
  }
  const folders = dataFolders(dataDir);
  const db = databaseUrl ? new pg.Pool({ connectionString: databaseUrl.split('?')[0], max: 1 }) : undefined;
  const schema = databaseUrl && new URL(databaseUrl).searchParams.get('schema');
  // The embedded outbox's journal is rewritten whole as its next generation (journal-<n>.log).
  const journalGeneration = async (): Promise<number> =>
    Math.max(
      0,
      ...(await readdir(folders.outbox).catch(() => [])).map((name) =>
        Number(/^journal-(\d+)\.log$/.exec(name)?.[1] ?? 0),
      ),
    );
  const parts = async (): Promise<Record<string, number>> => {
    if (db) {
      const size = async (tables: string[]) => {
        const { rows } = await db.query<{ bytes: string }>(
          `SELECT coalesce(sum(pg_total_relation_size(format('%I.%I', $1::text, t))), 0) AS bytes FROM unnest($2::text[]) t`,
          [schema, tables],
        );
        return Number(rows[0].bytes);
      };
      return {
        archive: await size(['blocks', 'canonical_blocks', 'contracts']),
        events: await size(['event_log']),
        outbox: await size(['outbox_payloads', 'outbox_block_texts', 'outbox_queues', 'outbox_sent_blocks']),
        settled: 0,
        log: 0,
      };
    }
    return {
      archive: await bytesUnder(folders.archive),
      events: await bytesUnder(folders.events),
      outbox: await bytesUnder(join(folders.outbox, 'payloads')),
      settled: await bytesUnder(join(folders.outbox, 'settled')),
      log: await bytesUnder(folders.outbox, (name) => name.startsWith('journal-')),
    };
  };

  console.log(
    `# soak on the ${postgres ? 'Postgres' : 'embedded'} store: ${hookCount} hooks (${matching} matching), ${rate} blocks/s, ${minutes} min, retention ${values.retention}, body retention ${values['body-retention']}; the server is process ${server.pid}`,
  );
  console.log(machineLine());
  console.log(
    '\n| window end (s) | blocks | payloads received | RSS MiB | RSS peak MiB | heap used MiB | archive MiB | event log MiB | outbox MiB | settled records MiB | delivery log MiB | journal rewrites | oldest logged s | loop pause max ms | observer p50/p99 ms | observer p99 at the server ≤ ms / posts over 50 ms | append p99 ≤ ms / over 50 ms | delivery p50/p99 ms | pending | load |',
  );
  console.log(`|${'---:|'.repeat(20)}`);
  // Both read "since the last read": the peak RSS and prom-client's event-loop histogram. Reading
  // them now starts the first window clean of the hooks' registration.
  await server.memory();
  let lastFigures = await server.figures();
  const windows: Window[] = [];
  const observer: number[] = [];
  const start = Date.now();
  const end = start + minutes * 60_000;
  let n = 0;
  let nextWindow = start + windowMs;
  let failedPosts = 0;
  let lastGeneration = await journalGeneration();
  while (Date.now() < end) {
    if (snapshotAt.length > 0 && Date.now() >= start + snapshotAt[0] * 60_000) {
      const minute = snapshotAt.shift()!;
      const path = await server.heapSnapshot(snapshotDir!);
      console.log(`heap snapshot at ${minute} min (block ${n}): ${path}`);
    }
    const due = start + (n * 1000) / rate;
    if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
    const block = blockOf(template, n);
    const body = JSON.stringify(block);
    const t0 = Date.now();
    postedAt.set(block.block_height, t0);
    if (block.events.some((e) => e.type.startsWith('stx_'))) expected += matching;
    const answer = await poster.post(server.observerUrl, body);
    if (answer.status !== 200) failedPosts++;
    observer.push(Math.round(answer.ms));
    n++;
    if (Date.now() >= nextWindow) {
      const memory = await server.memory();
      const figures = await server.figures();
      const p = await parts();
      const generation = await journalGeneration();
      const loggedAt = await server.oldestLoggedAt(watched);
      const oldest = loggedAt === undefined ? undefined : Math.round((Date.now() - loggedAt) / 1000);
      const pause = Math.round((figures.get('nodejs_eventloop_lag_max_seconds') ?? NaN) * 1000);
      const window: Window = {
        ...memory,
        observerP99: pct(observer, 99),
        deliveryP99: pct(delivery, 99),
        pause,
        oldest,
      };
      windows.push(window);
      console.log(
        `| ${Math.round((Date.now() - start) / 1000)} | ${n} | ${received} | ${MiB(memory.rss)} | ${memory.peak === undefined ? '-' : MiB(memory.peak)} | ${MiB(figures.get('nodejs_heap_size_used_bytes') ?? NaN)} | ${MiB(p.archive)} | ${MiB(p.events)} | ${MiB(p.outbox)} | ${postgres ? '-' : MiB(p.settled)} | ${postgres ? '(in outbox)' : MiB(p.log)} | ${postgres ? '-' : generation - lastGeneration} | ${oldest ?? '-'} | ${pause} | ${pct(observer, 50)}/${window.observerP99} | ${serverObserver(lastFigures, figures, 'stackhooks_observer_post_seconds')} | ${serverObserver(lastFigures, figures, 'stackhooks_event_log_append_seconds')} | ${pct(delivery, 50)}/${window.deliveryP99} | ${figures.get('stackhooks_outbox_pending') ?? '-'} | ${loadavg()[0].toFixed(1)} |`,
      );
      observer.length = 0;
      delivery.length = 0;
      lastFigures = figures;
      lastGeneration = generation;
      nextWindow += windowMs;
    }
  }
  // The webhooks still due go out before the count: a missing one is lost, not late.
  const drainUntil = Date.now() + 120_000;
  while (received < expected && Date.now() < drainUntil) await new Promise((r) => setTimeout(r, 250));
  const exitCode = await server.stop();
  const errors = server.errorLines();
  for (const line of errors.slice(0, 10)) console.error(`stackhooks: ${line}`);
  console.log(`\n${summary(windows)}`);
  console.log(
    `${n} blocks posted, ${failedPosts} not answered 200; ${received} webhooks received of ${expected} expected (${expected - received} missing after up to 2 min of draining); ${errors.length} error lines; the server exited ${exitCode} on SIGTERM.`,
  );
  receiver.stop();
  poster.stop();
  await db?.end();
  if (databaseUrl) {
    const base = new pg.Client({ connectionString: databaseUrl.split('?')[0] });
    await base.connect();
    await base.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await base.end();
  }
  await rm(dataDir, { recursive: true, force: true });
}

// Stopped by a signal (Ctrl-C, `timeout`), the bench exits through its 'exit' handlers, which stop
// the server and the receiver: a process of theirs left running would load the next run.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

await main();
