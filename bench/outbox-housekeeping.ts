// The embedded outbox's housekeeping on a big folder: how long the event loop is held while a
// compaction rewrites a large journal (with small enqueues going on meanwhile, as blocks would),
// and how long an open (a restart) takes with a long history, with that history pruned, and fresh.
// The folder: `--payloads` payloads (1 KB bodies) over `--hooks` hooks, 90% of them delivered (the
// history), the last 10% pending (the working set); the fresh folder holds only that working set.
// Run: npx tsx bench/outbox-housekeeping.ts [--payloads 200000] [--hooks 2000] [--slice-kib 256]
// (prints Markdown; the slice is the compaction's `snapshotSliceBytes`)
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { openFsOutbox, type FsOutbox } from '../adapters/outbox/index.js';
import type { OutgoingPayload } from '../core/ports/delivery-queue.js';
import { machineLine } from './support/measure.js';

const { values } = parseArgs({
  options: {
    payloads: { type: 'string', default: '200000' },
    hooks: { type: 'string', default: '2000' },
    'slice-kib': { type: 'string', default: '256' },
  },
});
const PAYLOADS = Number(values.payloads);
const HOOKS = Number(values.hooks);
const BATCH = 1000;
const SLICE = Number(values['slice-kib']) * 1024;
const T0 = 1_700_000_000_000;
const none: ReadonlySet<string> = new Set();
const NEVER = { compactAtBytes: 2 ** 40 };
const rows: string[] = [];
let next = 0;
const MiB = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

function payload(i: number): OutgoingPayload {
  const hook = `hook-${i % HOOKS}`;
  return {
    id: `p${i}`,
    hook_uuid: hook,
    owner: 'bench',
    url: 'https://example.com/hook',
    kind: 'live',
    apply: [{ index: 1000 + Math.floor(i / HOOKS), hash: `0x${i.toString(16)}`, tx_indexes: [0, 1] }],
    rollback: [],
    body: {
      chainhook: { uuid: hook, name: `bench ${'x'.repeat(900)}` },
      event: { chain: 'stacks', network: 'mainnet', apply: [], rollback: [] },
    },
    created_at: T0 + i,
  };
}

async function enqueueRange(outbox: FsOutbox, from: number, to: number): Promise<void> {
  for (let i = from; i < to; i += BATCH) {
    const batch: OutgoingPayload[] = [];
    for (let j = i; j < Math.min(to, i + BATCH); j++) batch.push(payload(j));
    await outbox.enqueue(batch);
  }
}

async function deliverAll(outbox: FsOutbox, now: number): Promise<void> {
  for (let due = await outbox.due(now, 5000, none); due.length > 0; due = await outbox.due(now, 5000, none)) {
    await outbox.recordAttempts(
      due.map(({ payload: p }) => ({
        id: p.id,
        attempt: { at: now, status_code: 200, error: null, latency_ms: 10 },
        outcome: { state: 'delivered' as const },
      })),
    );
  }
}

async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? await folderBytes(path) : (await stat(path)).size;
  }
  return total;
}

const journals = async (dir: string) =>
  (await readdir(dir)).filter((n) => /^journal-\d+\.log$/.test(n)).join(',');

async function journalBytes(dir: string): Promise<number> {
  const names = (await readdir(dir)).filter((n) => n.startsWith('journal-'));
  return (await Promise.all(names.map(async (n) => (await stat(join(dir, n))).size))).reduce(
    (a, b) => a + b,
    0,
  );
}

// Enqueue one payload every 10 ms until `until` resolves, watching the event loop meanwhile.
async function underTraffic(outbox: FsOutbox, until: () => Promise<void>) {
  const loop = monitorEventLoopDelay({ resolution: 1 });
  const commits: number[] = [];
  let traffic = true;
  const done = (async () => {
    for (let i = 0; traffic; i++) {
      const start = performance.now();
      await outbox.enqueue([payload(PAYLOADS + next++)]);
      commits.push(performance.now() - start);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  loop.enable();
  const start = performance.now();
  await until();
  const ms = performance.now() - start;
  traffic = false;
  await done;
  loop.disable();
  commits.sort((a, b) => a - b);
  const f = (ns: number) => (ns / 1e6).toFixed(1);
  const median = commits[Math.floor(commits.length / 2)] ?? NaN;
  const max = commits.at(-1) ?? NaN;
  const row = `${f(loop.max)} | ${f(loop.percentile(99))} | ${commits.length} | ${median.toFixed(1)} | ${max.toFixed(1)}`;
  return { ms, row };
}

// Open the folder, timed (a restart's ready time for the outbox), and add its row to the table.
async function timedOpen(what: string, dir: string): Promise<FsOutbox> {
  const start = performance.now();
  const outbox = await openFsOutbox(dir, NEVER);
  const ms = performance.now() - start;
  const m = outbox.inMemory();
  const memory = `${m.entries} / ${m.coldPayloads} / ${m.settledPayloads}`;
  const [journal, folder] = [MiB(await journalBytes(dir)), MiB(await folderBytes(dir))];
  rows.push(`| ${what} | ${journal} | ${folder} | ${ms.toFixed(0)} | ${memory} |`);
  return outbox;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'stackhooks-housekeeping-'));
  const fresh = await mkdtemp(join(tmpdir(), 'stackhooks-housekeeping-fresh-'));
  const history = Math.floor(PAYLOADS * 0.9);
  try {
    const filling = await openFsOutbox(dir, NEVER);
    await enqueueRange(filling, 0, history);
    await deliverAll(filling, T0 + PAYLOADS);
    await enqueueRange(filling, history, PAYLOADS);
    await filling.close();
    await (await timedOpen('history in an uncompacted journal', dir)).close();

    // The event loop under light traffic (an enqueue every 10 ms) with nothing else going on, then
    // while a compaction rewrites the whole journal: the first commit starts it (the journal is past
    // 1 byte), and it is over once the next generation replaced the old one.
    const before = await journalBytes(dir);
    const quiet = await openFsOutbox(dir, NEVER);
    const baseline = await underTraffic(quiet, () => new Promise((r) => setTimeout(r, 1000)));
    await quiet.close();
    const outbox = await openFsOutbox(dir, { compactAtBytes: 1, snapshotSliceBytes: SLICE });
    const generation = await journals(dir);
    const compaction = await underTraffic(outbox, async () => {
      while ((await journals(dir)) === generation) await new Promise((r) => setTimeout(r, 20));
    });
    await outbox.close();
    console.log(`# outbox housekeeping: ${PAYLOADS} payloads over ${HOOKS} hooks, ${history} delivered`);
    console.log(machineLine());
    console.log(
      `\ncompaction: journal ${MiB(before)} → ${MiB(await journalBytes(dir))} MiB in ${compaction.ms.toFixed(0)} ms (slices of ${SLICE / 1024} KiB)`,
    );
    console.log('\n| | event loop held, max ms | p99 ms | enqueues | commit p50 ms | commit max ms |');
    console.log('|---|---:|---:|---:|---:|---:|');
    console.log(`| no compaction (1 s) | ${baseline.row} |`);
    console.log(`| during the compaction | ${compaction.row} |`);

    const kept = await timedOpen('history kept, journal compacted', dir);
    // The retention passes over the history: all of it is pruned in one step, and the compaction
    // that pays follows.
    const prune = await underTraffic(kept, async () => {
      await kept.prune(T0 + PAYLOADS + 1, T0 + PAYLOADS + 1);
    });
    console.log(
      `| pruning all ${history} settled payloads at once (${prune.ms.toFixed(0)} ms) | ${prune.row} |`,
    );
    await kept.close();
    await (await timedOpen('history pruned', dir)).close();

    const only = await openFsOutbox(fresh, NEVER);
    await enqueueRange(only, history, PAYLOADS);
    await only.close();
    await (await timedOpen('fresh: the same pending payloads, no history', fresh)).close();

    console.log(
      '\n| folder | journal MiB | outbox folder MiB | open ms | in memory: entries / cold / settled |',
    );
    console.log('|---|---:|---:|---:|---|');
    for (const line of rows) console.log(line);
  } finally {
    await rm(dir, { recursive: true, force: true });
    await rm(fresh, { recursive: true, force: true });
  }
}

await main();
