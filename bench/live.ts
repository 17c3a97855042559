// The live stream's cost per block, the whole step as the service runs it: one chain event into
// LiveMatching, matched, its payloads shaped, serialized and made durable in the store's own outbox
// (the file outbox beside lowdb, the Postgres outbox beside Postgres), and the counters written,
// with 1,000, 10,000 and 100,000 live hooks registered, on the embedded lowdb store and on Postgres.
// Two shapes of hook set: about 1% of the hooks match each block (so the payloads grow with the
// hooks), and a fixed 10 match (so only the registered count grows). The promise to check: a block
// costs what its matching hooks cost, not what the registered ones do.
// With --v1 the hooks are Chainhook 1.x predicates (`ft_event` scopes) and the payloads 1.x's.
// Run: npx tsx bench/live.ts [--blocks N] [--sizes 1000,10000,100000] [--stores lowdb,postgres] [--no-postgres] [--v1]
// Prints Markdown; exits 0 whatever it measures (Postgres rows are skipped when it does not answer).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { execSync } from 'node:child_process';
import { openFsOutbox } from '../adapters/outbox/index.js';
import { openLowdbStore } from '../adapters/store-lowdb/index.js';
import { PgHookRepository, PgOutbox, migrate, openDatabase } from '../adapters/store-postgres/index.js';
import type { EventFilter } from '../core/hooks/definition.js';
import { createHook } from '../core/hooks/lifecycle.js';
import type { StoredHook } from '../core/hooks/record.js';
import type { HookRepository } from '../core/ports/hook-repository.js';
import type { DeliveryQueue } from '../core/ports/delivery-queue.js';
import { LiveMatching } from '../core/use-cases/live-matching.js';
import { sampleDefinition } from '../test/support/definitions.js';
import type { HookDefinition } from '../core/hooks/definition.js';
import { benchDatabaseAnswers, dropBenchSchema, freshBenchSchema } from './support/pg-schema.js';
import { v1HookSet } from './support/v1-hooks.js';
import { FT, ISSUER, ftTransferBlocks } from './support/ft-transfer-blocks.js';

const { values: args } = parseArgs({
  options: {
    blocks: { type: 'string', default: '6' },
    sizes: { type: 'string', default: '1000,10000,100000' },
    /** The stores to measure, in order. */
    stores: { type: 'string', default: 'lowdb,postgres' },
    'no-postgres': { type: 'boolean', default: false },
    v1: { type: 'boolean', default: false },
    /** A folder: writes a CPU profile of each row's timed blocks there (seeding left out). */
    'profile-dir': { type: 'string' },
  },
});
const BLOCKS = Number(args.blocks);
const SIZES = args.sizes.split(',').map(Number);

type Store = {
  name: string;
  hooks: HookRepository;
  /** The outbox the service runs with this store: payloads serialized and made durable there. */
  outbox: DeliveryQueue;
  seed(hooks: StoredHook[]): Promise<void>;
  close(): Promise<void>;
};
type Row = {
  store: string;
  hooks: number;
  matching: number;
  msPerBlock: number;
  /** The median block's wall time: the mean without the few blocks a full garbage collection lands in. */
  medianMs: number;
  /** CPU time of this process per block (the database's own work is not in it). */
  cpuMsPerBlock: number;
  /** Of msPerBlock: in the outbox's enqueue (serialize and make durable). */
  enqueueMs: number;
  /** Of msPerBlock: in the hook store's live step write, after the enqueue it overlaps ended. */
  storeMs: number;
  payloads: number;
};

/** Time spent in a method, and when its last call ended. */
type Spent = { ms: number; endedAt: number };

/**
 * Adds the time spent in `object[method]` to `spent.ms`, counted from when `overlapped` last ended
 * if that was later than the call's start (the live step's write waits for the enqueue it overlaps).
 */
function timed<T extends object>(
  object: T,
  method: keyof T & string,
  spent: Spent,
  overlapped?: Spent,
): void {
  const original = (object[method] as (...args: unknown[]) => Promise<unknown>).bind(object);
  (object as Record<string, unknown>)[method] = async (...args: unknown[]) => {
    const start = performance.now();
    try {
      return await original(...args);
    } finally {
      spent.endedAt = performance.now();
      spent.ms += spent.endedAt - Math.max(start, overlapped?.endedAt ?? start);
    }
  };
}

/** `count` enabled hooks; the first `matching` follow the FT every block moves, the rest an FT no block moves. */
function hookSet(count: number, matching: number): StoredHook[] {
  const out: StoredHook[] = [];
  for (let i = 0; i < count; i++) {
    const filter: EventFilter =
      i < matching
        ? { type: 'ft_transfer', asset_identifier: FT }
        : { type: 'ft_transfer', asset_identifier: `${ISSUER}.token-${i}::t${i}` };
    const definition = sampleDefinition({
      filters: { events: [filter] },
      options: { enable_on_registration: true },
    }) as HookDefinition;
    out.push(
      createHook(
        `owner-${i % 100}`,
        `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        definition,
        1_700_000_000_000 + i,
      ),
    );
  }
  return out;
}

async function lowdbStore(): Promise<Store> {
  const dir = await mkdtemp(join(tmpdir(), 'stackhooks-bench-live-'));
  let store = await openLowdbStore(dir);
  const outbox = await openFsOutbox(join(dir, 'outbox'));
  return {
    name: 'lowdb',
    get hooks() {
      return store.hooks;
    },
    outbox,
    async seed(hooks) {
      // Inserts coalesce into a few file writes when they are all started at once.
      await Promise.all(hooks.map((hook) => store.hooks.insert(hook, Infinity)));
      // A service that has held these hooks for a while has them in its main file: reopen, so the
      // timed blocks do not pay for the background compaction of the registrations just made.
      await store.close();
      store = await openLowdbStore(dir);
    },
    async close() {
      await outbox.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function postgresStore(): Promise<Store> {
  const { url, schema } = freshBenchSchema();
  const db = await openDatabase(url);
  await migrate(db);
  const hooks = new PgHookRepository(db);
  return {
    name: 'postgres',
    hooks,
    outbox: new PgOutbox(db),
    async seed(all) {
      // One statement per 10,000 hooks: registering 100,000 one by one would dominate the run.
      for (let i = 0; i < all.length; i += 10_000) {
        const rows = all.slice(i, i + 10_000).map(({ uuid, owner, created_at_ms, definition, status }) => ({
          uuid,
          owner,
          created_at_ms,
          definition,
          status,
        }));
        await db.pool.query(
          `INSERT INTO hooks (uuid, owner, created_at_ms, definition, status)
           SELECT uuid, owner, created_at_ms, definition, status FROM jsonb_to_recordset($1::jsonb)
             AS r (uuid text, owner text, created_at_ms bigint, definition jsonb, status jsonb)`,
          [JSON.stringify(rows)],
        );
      }
      // A service that has held these hooks for a while has had them vacuumed and analyzed by
      // autovacuum: the timed blocks should not pay for the first reads of rows just bulk-loaded.
      await db.pool.query('VACUUM ANALYZE hooks');
    },
    async close() {
      await db.close();
      await dropBenchSchema(schema);
    },
  };
}

/** Register the hooks, warm up on two blocks, then time `BLOCKS` blocks one chain event each. */
async function measure(open: () => Promise<Store>, count: number, matching: number): Promise<Row> {
  const store = await open();
  try {
    await store.seed(args.v1 ? v1HookSet(count, matching, FT, ISSUER) : hookSet(count, matching));
    let now = 1_700_100_000_000;
    const live = new LiveMatching(
      store.hooks,
      store.outbox,
      { now: () => (now += 1000) },
      { network: 'mainnet', maxHooksPerOwner: Infinity, serverVersion: 'bench' },
    );
    const blocks = await ftTransferBlocks(BLOCKS + 2, 'bench-live');
    let eventId = 0;
    for (const block of blocks.slice(0, 2))
      await live.chainUpdated({ eventId: ++eventId, rollback: [], apply: [block] });
    const enqueue = { ms: 0, endedAt: 0 };
    const write = { ms: 0, endedAt: 0 };
    timed(store.outbox, 'enqueue', enqueue);
    timed(store.hooks, 'recordLiveStep', write, enqueue);
    let payloads = 0;
    const profile = args['profile-dir'] ? await startProfile() : undefined;
    const cpu = process.cpuUsage();
    const start = performance.now();
    const times: number[] = [];
    for (const block of blocks.slice(2)) {
      const began = performance.now();
      payloads += (await live.chainUpdated({ eventId: ++eventId, rollback: [], apply: [block] }))
        .payloadsQueued;
      times.push(performance.now() - began);
    }
    const ms = (performance.now() - start) / BLOCKS;
    times.sort((a, b) => a - b);
    const used = process.cpuUsage(cpu);
    await profile?.(join(args['profile-dir']!, `live-${store.name}-${count}-${matching}.cpuprofile`));
    return {
      cpuMsPerBlock: (used.user + used.system) / 1000 / BLOCKS,
      store: store.name,
      hooks: count,
      matching,
      msPerBlock: ms,
      medianMs: times[Math.floor(times.length / 2)],
      enqueueMs: enqueue.ms / BLOCKS,
      storeMs: write.ms / BLOCKS,
      payloads: payloads / BLOCKS,
    };
  } finally {
    await store.close();
  }
}

/** Start the V8 profiler; the returned function stops it and writes the profile to a file. */
async function startProfile(): Promise<(file: string) => Promise<void>> {
  const session = new Session();
  session.connect();
  const post = (method: string) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, (err, result) => (err ? reject(err) : resolve(result))),
    );
  await post('Profiler.enable');
  await post('Profiler.start');
  return async (file) => {
    const { profile } = (await post('Profiler.stop')) as { profile: unknown };
    session.disconnect();
    await writeFile(file, JSON.stringify(profile));
  };
}

const wanted = new Set(args.stores.split(','));
const stores: (() => Promise<Store>)[] = wanted.has('lowdb') ? [lowdbStore] : [];
if (wanted.has('postgres') && !args['no-postgres'] && (await benchDatabaseAnswers()))
  stores.push(postgresStore);
else console.error('Postgres rows skipped');

const load = loadavg();
const rows: Row[] = [];
for (const open of stores) {
  for (const count of SIZES) {
    for (const matching of new Set([Math.round(count / 100), 10])) {
      const row = await measure(open, count, matching);
      console.error(
        `${row.store} ${count} hooks, ${matching} matching: ${row.msPerBlock.toFixed(1)} ms/block ` +
          `(median ${row.medianMs.toFixed(1)}), ` +
          `CPU ${row.cpuMsPerBlock.toFixed(1)} ms ` +
          `(enqueue ${row.enqueueMs.toFixed(1)}, hook store ${row.storeMs.toFixed(1)})`,
      );
      rows.push(row);
    }
  }
}

let commit = 'unknown';
try {
  commit = execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim();
} catch {
  // Not a checkout: the table stands without it.
}
console.log(`## Live stream per block${args.v1 ? ', Chainhook 1.x predicates' : ''}\n`);
console.log(
  `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ` +
    `commit ${commit}, load average at start ${load.map((l) => l.toFixed(2)).join(' ')}, ${BLOCKS} timed blocks each.\n`,
);
console.log(
  '| store | live hooks | matching | payloads/block | ms/block | median ms | of which enqueue | of which hook store | CPU ms/block |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows) {
  console.log(
    `| ${r.store} | ${r.hooks.toLocaleString('en')} | ${r.matching} | ${r.payloads} | ${r.msPerBlock.toFixed(1)} | ` +
      `${r.medianMs.toFixed(1)} | ` +
      `${r.enqueueMs.toFixed(1)} | ${r.storeMs.toFixed(1)} | ${r.cpuMsPerBlock.toFixed(1)} |`,
  );
}
// The ratio needs two sizes: with one, it would compare a row with itself.
if (SIZES.length > 1) printRatios();

/** Each store's ms a block at the largest size over the smallest, for both shapes of hook set. */
function printRatios(): void {
  console.log(
    `\n| store | matching | ms/block ${SIZES.at(-1)!.toLocaleString('en')} ÷ ${SIZES[0].toLocaleString('en')} hooks |`,
  );
  console.log('| --- | --- | ---: |');
  for (const store of new Set(rows.map((r) => r.store))) {
    for (const shape of ['1%', '10'] as const) {
      const pick = (n: number) =>
        rows.find(
          (r) =>
            r.store === store &&
            r.hooks === n &&
            (shape === '1%' ? r.matching === n / 100 : r.matching === 10),
        );
      const small = pick(SIZES[0]);
      const large = pick(SIZES.at(-1)!);
      if (small && large)
        console.log(`| ${store} | ${shape} | ${(large.msPerBlock / small.msPerBlock).toFixed(1)}x |`);
    }
  }
}
