// Soak: the real server (startServer) run for minutes at a steady load, its cost printed per window.
// 5,000 hooks, 2% of them matching every block (stx events); blocks posted to the observer at a
// steady rate, copies of the recorded 63-transaction block (poisonmicroblock.tsv): 1 in 10 whole,
// the others cut to its first few transactions that move STX (so every block matches the matching
// hooks: the block's first transactions have no events at all) and their events; every receiver
// (one child process) answers 200 after 10 ms. Each window prints RSS, the disk of each part
// (archive, event log, outbox bodies, settled log records, delivery log), the age of the oldest
// payload one matching hook's delivery log still lists, the outbox's entries in memory, the longest
// event-loop pause, the observer's POST p50/p99, delivery p50/p99 (block posted → its webhook
// received) and the payloads pending. At the end it waits for the webhooks
// still due and counts any missing.
//
// Run: npx tsx bench/soak.ts [--minutes N] [--store embedded|postgres] [--window-seconds 30]
//   [--retention 5m] [--body-retention 1m] [--rate 3]
// (Postgres: STACKHOOKS_TEST_DATABASE_URL or the local server, in a fresh schema.)
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { FsOutbox } from '../adapters/outbox/index.js';
import { dataFolders } from '../apps/server/data-folders.js';
import { DELIVERY_QUEUE, type DeliveryQueue } from '../core/ports/delivery-queue.js';
import type { NodeBlock } from '../core/stacks-codec/node-block.js';
import { startBenchServer } from './support/bench-server.js';
import { busyCopy, readFirstNodeBlock } from './support/busy-blocks.js';
import { matchingDefinition, nonMatchingDefinition } from './support/deliver-hooks.js';
import { machineLine } from './support/measure.js';

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
  },
});
const minutes = Number(values.minutes);
const windowMs = Number(values['window-seconds']) * 1000;
const rate = Number(values.rate);
const hookCount = Number(values.hooks);
const matching = Math.round(hookCount * 0.02);
const SMALL_TXS = 4;

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
  const errors: string[] = [];
  const server = await startBenchServer({
    dataDir,
    errors,
    env: {
      STACKHOOKS_MAX_HOOKS_PER_OWNER: String(hookCount),
      STACKHOOKS_DELIVERY_RETENTION: values.retention!,
      STACKHOOKS_DELIVERED_BODY_RETENTION: values['body-retention']!,
      ...(databaseUrl && { STACKHOOKS_DATABASE_URL: databaseUrl }),
    },
  });
  const { stackhooks } = server;
  let watched = '';
  for (let i = 0; i < hookCount; i++) {
    const hook = await stackhooks.registry.register(
      'soak',
      i < matching ? matchingDefinition(`match ${i}`, receiver.url) : neverDefinition(i, receiver.url),
    );
    if (i === 0) watched = hook.uuid;
  }
  const queue = stackhooks.container.get<DeliveryQueue>(DELIVERY_QUEUE);
  const folders = dataFolders(dataDir);
  const db = databaseUrl ? new pg.Pool({ connectionString: databaseUrl.split('?')[0], max: 1 }) : undefined;
  const schema = databaseUrl && new URL(databaseUrl).searchParams.get('schema');
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
    `# soak on the ${postgres ? 'Postgres' : 'embedded'} store: ${hookCount} hooks (${matching} matching), ${rate} blocks/s, ${minutes} min, retention ${values.retention}, body retention ${values['body-retention']}`,
  );
  console.log(machineLine());
  console.log(
    '\n| window end (s) | blocks | payloads received | RSS MiB | archive MiB | event log MiB | outbox MiB | settled records MiB | delivery log MiB | oldest logged s | entries in memory | loop pause max ms | observer p50/p99 ms | delivery p50/p99 ms | pending | load |',
  );
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  // Retention held while running: the age of the oldest payload one matching hook's log still lists.
  const oldestLogged = async (): Promise<string> => {
    const { total } = await queue.list(watched, { offset: 0, limit: 1 });
    if (total === 0) return '-';
    const [oldest] = (await queue.list(watched, { offset: total - 1, limit: 1 })).results;
    return oldest ? String(Math.round((Date.now() - oldest.created_at) / 1000)) : '-';
  };
  const entries = () => (postgres ? '-' : String((queue as FsOutbox).inMemory().entries));
  const observer: number[] = [];
  const start = Date.now();
  const end = start + minutes * 60_000;
  let n = 0;
  let nextWindow = start + windowMs;
  let failedPosts = 0;
  const url = `http://127.0.0.1:${server.observerPort}/new_block`;
  while (Date.now() < end) {
    const due = start + (n * 1000) / rate;
    if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
    const block = blockOf(template, n);
    const body = JSON.stringify(block);
    const t0 = Date.now();
    postedAt.set(block.block_height, t0);
    if (block.events.some((e) => e.type.startsWith('stx_'))) expected += matching;
    const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    await res.arrayBuffer();
    if (res.status !== 200) failedPosts++;
    observer.push(Date.now() - t0);
    n++;
    if (Date.now() >= nextWindow) {
      const p = await parts();
      const pending = (await queue.pendingSummary()).pending;
      const load = (await import('node:os')).loadavg()[0].toFixed(1);
      console.log(
        `| ${Math.round((Date.now() - start) / 1000)} | ${n} | ${received} | ${MiB(process.memoryUsage().rss)} | ${MiB(p.archive)} | ${MiB(p.events)} | ${MiB(p.outbox)} | ${postgres ? '-' : MiB(p.settled)} | ${postgres ? '(in outbox)' : MiB(p.log)} | ${await oldestLogged()} | ${entries()} | ${(loop.max / 1e6).toFixed(0)} | ${pct(observer, 50)}/${pct(observer, 99)} | ${pct(delivery, 50)}/${pct(delivery, 99)} | ${pending} | ${load} |`,
      );
      observer.length = 0;
      delivery.length = 0;
      loop.reset();
      nextWindow += windowMs;
    }
  }
  // The webhooks still due go out before the count: a missing one is lost, not late.
  const drainUntil = Date.now() + 120_000;
  while (received < expected && Date.now() < drainUntil) await new Promise((r) => setTimeout(r, 250));
  console.log(
    `\n${n} blocks posted, ${failedPosts} not answered 200; ${received} webhooks received of ${expected} expected (${expected - received} missing after up to 2 min of draining); ${errors.length} error lines.`,
  );
  await server.stop();
  receiver.stop();
  await db?.end();
  if (databaseUrl) {
    const base = new pg.Client({ connectionString: databaseUrl.split('?')[0] });
    await base.connect();
    await base.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await base.end();
  }
  await rm(dataDir, { recursive: true, force: true });
}

await main();
