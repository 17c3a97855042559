// The Postgres outbox's throughput: 10,000 payloads of about 5 KB for 100 hooks, enqueued in batches
// of 100 (one block's worth: one payload per hook), then drained by 1 and by 2 worker processes,
// each shaped like the dispatcher (up to 32 hooks in flight, `due` for the free slots, each sent at
// once, i.e. a target that answers instantly, and recorded as delivered through the dispatcher's
// AttemptRecorder, so attempts that end during a write go in one batch). A fresh schema for
// each drain; workers are child processes that connect first and start on a signal, so neither
// start-up nor one shared event loop is timed.
// Run: npx tsx bench/pg-outbox.ts [--rounds N]   (needs the test database; prints Markdown)
// Exits 2 when PostgreSQL does not answer; otherwise 0 unless something crashes.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type pg from 'pg';
import { openDatabase } from '../adapters/store-postgres/database.js';
import { openPgOutbox, type PgOutbox } from '../adapters/store-postgres/pg-outbox.js';
import type { OutgoingPayload } from '../core/ports/delivery-queue.js';
import { AttemptRecorder } from '../core/use-cases/attempt-recorder.js';
import { outgoing } from '../test/contracts/delivery-queue.contract.js';
import { openTestDatabase, postgresAvailable } from '../test/support/postgres.js';
import { machineLine } from './support/measure.js';
import { bestMedian, markdownTable } from './support/report.js';

const script = fileURLToPath(import.meta.url);
const HOOKS = 100;
const BATCHES = 100;
const BODY_BYTES = 5_000;
const IN_FLIGHT = 32;

if (process.argv[2] === '--child') await child(process.argv[3]);
else await main();

async function main(): Promise<void> {
  if (!(await postgresAvailable())) {
    console.error('PostgreSQL does not answer (see test/support/postgres.ts)');
    process.exit(2);
  }
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' } } });
  const enqueueRates: number[] = [];
  const drainRates = new Map<number, number[]>([
    [1, []],
    [2, []],
  ]);
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const workers of [1, 2]) {
      const db = await openTestDatabase('bench_outbox');
      try {
        enqueueRates.push(await fill(openPgOutbox(db)));
        drainRates.get(workers)!.push(await drainWith(db.url, workers));
      } finally {
        await db.drop();
      }
    }
  }
  const count = HOOKS * BATCHES;
  console.log(
    `PgOutbox, ${count.toLocaleString('en-US')} payloads of ~5 KB, ${HOOKS} hooks; ${machineLine()}`,
  );
  console.log('Cells: best / median of the rounds, payloads/s.\n');
  console.log(
    markdownTable(
      ['Stage', 'payloads/s'],
      [
        [`enqueue, batches of ${HOOKS}`, bestMedian(enqueueRates)],
        [`drain, 1 worker process (due limit ${IN_FLIGHT})`, bestMedian(drainRates.get(1)!)],
        [`drain, 2 worker processes (due limit ${IN_FLIGHT} each)`, bestMedian(drainRates.get(2)!)],
      ],
    ),
  );
}

/** Enqueue every batch; payloads a second. */
async function fill(outbox: PgOutbox): Promise<number> {
  const hooks = Array.from({ length: HOOKS }, (_, i) => `hook-${i}`);
  const batches = Array.from({ length: BATCHES }, () => hooks.map(bodyOfFiveKb));
  const start = performance.now();
  for (const batch of batches) await outbox.enqueue(batch);
  return (HOOKS * BATCHES) / ((performance.now() - start) / 1000);
}

// A payload whose body is about 5 KB of JSON text that compresses about as well as real event JSON
// (hex, about 2:1); a run of one letter would shrink to nothing in Postgres and flatter the numbers.
function bodyOfFiveKb(hook: string): OutgoingPayload {
  const payload = outgoing(hook);
  payload.body.chainhook.name += randomBytes(BODY_BYTES / 2).toString('hex');
  return payload;
}

/** Start `count` worker processes, wait until each has connected, signal them, time until all are done. */
async function drainWith(url: string, count: number): Promise<number> {
  const children = Array.from({ length: count }, () =>
    spawn(process.execPath, ['--import', 'tsx', script, '--child', url], {
      stdio: ['pipe', 'pipe', 'inherit'],
    }),
  );
  const lines = children.map((c) => createInterface({ input: c.stdout })[Symbol.asyncIterator]());
  for (const line of lines) await line.next(); // "ready"
  const start = performance.now();
  for (const c of children) c.stdin.write('go\n');
  const results = await Promise.all(
    lines.map(async (line) => JSON.parse((await line.next()).value) as number),
  );
  const seconds = (performance.now() - start) / 1000;
  const delivered = results.reduce((a, b) => a + b, 0);
  if (delivered !== HOOKS * BATCHES) throw new Error(`delivered ${delivered}, expected ${HOOKS * BATCHES}`);
  return delivered / seconds;
}

/** In a worker process: drain like the dispatcher until nothing is pending; prints how many it delivered. */
async function child(url: string): Promise<void> {
  const db = await openDatabase(url);
  const outbox = openPgOutbox(db);
  const recorder = new AttemptRecorder(outbox);
  console.log('ready');
  await createInterface({ input: process.stdin })[Symbol.asyncIterator]().next();
  const inFlight = new Map<string, Promise<void>>();
  let delivered = 0;
  for (;;) {
    const free = IN_FLIGHT - inFlight.size;
    const due = free > 0 ? await outbox.due(Date.now(), free, new Set(inFlight.keys())) : [];
    for (const { payload } of due) {
      const work = recorder
        .record({
          id: payload.id,
          attempt: { at: Date.now(), status_code: 200, error: null, latency_ms: 1 },
          outcome: { state: 'delivered' },
        })
        .then(() => void delivered++)
        .finally(() => inFlight.delete(payload.hook_uuid));
      inFlight.set(payload.hook_uuid, work);
    }
    if (due.length > 0) continue;
    if (inFlight.size > 0) await Promise.race(inFlight.values());
    else if (!(await anyPending(db.pool))) break;
    // Another worker holds the remaining hooks: look again soon, as a delivery loop would.
    else await sleep(1);
  }
  console.log(JSON.stringify(delivered));
  await db.close();
  process.exit(0);
}

// Whether any payload is still pending (in another worker's hands, if none is due here).
async function anyPending(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query<{ any: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM outbox_payloads WHERE state = 'pending') AS any`,
  );
  return rows[0].any;
}
