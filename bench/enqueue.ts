// The embedded outbox's enqueue alone, the largest part of the live step at 100,000 hooks: one
// block's 1,000 live payloads (one per matching hook, sharing the block's shaped transaction, as
// the live step queues them) enqueued 30 times into a fresh outbox, each enqueue timed until it is
// durable. The first round warms up and is not counted. With `--dir` on a memory file system
// (`/dev/shm`), an fsync returns at once and what is timed is the event loop's own work. After each
// round, a full collection tells how much heap the outbox keeps per payload queued.
// Run: npx tsx bench/enqueue.ts [--rounds N] [--payloads N] [--dir FOLDER]
// Prints Markdown; exits 0 whatever it measures.
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { openFsOutbox } from '../adapters/outbox/index.js';
import type { NormalizedBlock } from '../core/chain/block.js';
import { shapePayload } from '../core/payload/index.js';
import type { OutgoingPayload } from '../core/ports/delivery-queue.js';
import { ftTransferBlocks } from './support/ft-transfer-blocks.js';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '6' },
    payloads: { type: 'string', default: '1000' },
    dir: { type: 'string', default: tmpdir() },
  },
});
const ROUNDS = Number(args.rounds);
const PAYLOADS = Number(args.payloads);
const BLOCKS = 30;

/** The payloads the live step queues for `block`: one per hook, each shaped around the shared block. */
function payloadsOf(block: NormalizedBlock, at: number): OutgoingPayload[] {
  return Array.from({ length: PAYLOADS }, (_, i) => {
    const uuid = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const digest = createHash('sha256').update(`${uuid}|${block.block_identifier.hash}`).digest('hex');
    return {
      id: `msg_${digest.slice(0, 32)}`,
      hook_uuid: uuid,
      owner: `owner-${i % 100}`,
      url: `https://receiver.example/hooks/${i}`,
      kind: 'live',
      apply: [{ ...block.block_identifier, tx_indexes: [0] }],
      rollback: [],
      body: shapePayload({
        hook: { uuid, name: `hook ${i}`, options: null },
        network: 'mainnet',
        apply: [{ block, txIndexes: [0] }],
        rollback: [],
      }),
      created_at: at,
    };
  });
}

// A full collection on demand, to read what the outbox keeps once a round is queued.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

const blocks = await ftTransferBlocks(BLOCKS, 'bench-enqueue');
const load = loadavg();
const wall: number[] = [];
let cpuMs = 0;
const keptPerPayload: number[] = [];
for (let round = 0; round <= ROUNDS; round++) {
  // Shaped before the clock starts: the live step's shaping is timed by `bench/live.ts`.
  const batches = blocks.map((block, b) => payloadsOf(block, 1_700_000_000_000 + b * 1000));
  const dir = await mkdtemp(join(args.dir, 'stackhooks-bench-enqueue-'));
  const outbox = await openFsOutbox(join(dir, 'outbox'));
  // Taken once this round's outbox holds the place of the last one, which is then let go.
  collect();
  const heapBefore = process.memoryUsage().heapUsed;
  try {
    for (const batch of batches) {
      const cpu = process.cpuUsage();
      const start = performance.now();
      await outbox.enqueue(batch);
      if (round === 0) continue;
      wall.push(performance.now() - start);
      const used = process.cpuUsage(cpu);
      cpuMs += (used.user + used.system) / 1000;
    }
    // The payloads themselves were made before the outbox opened: what grew is what it keeps.
    collect();
    const heapAfter = process.memoryUsage().heapUsed;
    // Read after the collection, so the payloads are alive through it whatever the compiler sees.
    if (round > 0 && batches.length === BLOCKS)
      keptPerPayload.push((heapAfter - heapBefore) / (BLOCKS * PAYLOADS));
  } finally {
    await outbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}

wall.sort((a, b) => a - b);
const at = (q: number) => wall[Math.min(wall.length - 1, Math.floor(q * wall.length))].toFixed(2);
const mean = wall.reduce((a, b) => a + b, 0) / wall.length;
console.log(`## The embedded outbox's enqueue, ${PAYLOADS.toLocaleString('en')} payloads sharing a block\n`);
console.log(
  `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ` +
    `folder ${args.dir}, load average at start ${load.map((l) => l.toFixed(2)).join(' ')}, ` +
    `${ROUNDS} rounds of ${BLOCKS} enqueues after one of warm-up.\n`,
);
const kept = keptPerPayload.reduce((a, b) => a + b, 0) / keptPerPayload.length;
console.log(
  '| enqueues | median ms | p25 ms | p90 ms | mean ms | CPU ms per enqueue | heap kept per payload, bytes |',
);
console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
console.log(
  `| ${wall.length} | ${at(0.5)} | ${at(0.25)} | ${at(0.9)} | ${mean.toFixed(2)} | ${(cpuMs / wall.length).toFixed(2)} | ${kept.toFixed(0)} |`,
);
