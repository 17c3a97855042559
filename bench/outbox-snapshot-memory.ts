// What the embedded outbox's compaction snapshot holds in memory while it is written, on the
// soak's stream: `--hooks` hooks (100) each sent every block, 1 block in 10 naming 35 transactions
// and the rest 4, every payload delivered at once, a prune every 30 blocks with a 5-minute
// retention (at 3 blocks a second) and a 1-minute body window; settled payloads on disk as the
// file outbox keeps them. After `--blocks` blocks, a snapshot is taken and its slices encoded one
// by one, with a block coming in after the first slice and after every 20th (the outbox keeps
// taking blocks while a compaction writes); after each slice the garbage collector runs and the
// heap in use (with external memory) is compared with its value, collected too, just before the
// snapshot was taken. The same blocks then come in at the same points without a snapshot, so what
// they add alone is known: the snapshot held the difference.
// Run: npx tsx bench/outbox-snapshot-memory.ts [--blocks 4500] [--hooks 100]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { OutboxState } from '../adapters/outbox/outbox-state.js';
import { PayloadSegments } from '../adapters/outbox/payload-segments.js';
import { SegmentPayloads } from '../adapters/outbox/payload-store.js';
import { SegmentSettlements } from '../adapters/outbox/settlement-store.js';
import { StateSnapshot } from '../adapters/outbox/state-snapshot.js';
import type { OutgoingPayload } from '../core/ports/delivery-queue.js';
import { machineLine } from './support/measure.js';

const { values } = parseArgs({
  options: { blocks: { type: 'string', default: '4500' }, hooks: { type: 'string', default: '100' } },
});
const BLOCKS = Number(values.blocks);
const HOOKS = Number(values.hooks);
const EVERY = 20;
const T0 = 1_700_000_000_000;
const MiB = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const inUse = () => {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
};
const at = (block: number) => T0 + Math.round((block * 1000) / 3);

function payload(block: number, hook: number): OutgoingPayload {
  const tx_indexes = block % 10 === 9 ? Array.from({ length: 35 }, (_, i) => i * 2) : [0, 1, 2, 3];
  const uuid = `00000000-0000-4000-8000-${String(hook).padStart(12, '0')}`;
  return {
    id: `p${block}-${hook}`,
    hook_uuid: uuid,
    owner: 'bench',
    url: 'http://127.0.0.1:1/hook',
    kind: 'live',
    apply: [{ index: 1000 + block, hash: `0x${block.toString(16).padStart(64, '0')}`, tx_indexes }],
    rollback: [],
    body: { chainhook: { uuid, name: 'bench' }, event: { apply: [], rollback: [] } } as never,
    created_at: at(block),
  };
}

const dir = await mkdtemp(join(tmpdir(), 'stackhooks-snapshot-memory-'));
const segments = await PayloadSegments.open(join(dir, 'payloads'), 64 * 1024 * 1024);
const settled = await PayloadSegments.open(join(dir, 'settled'), 8 * 1024 * 1024);
const state = new OutboxState(
  new SegmentPayloads(segments, 16 * 1024 * 1024),
  32,
  { keepDeliveredBodiesMs: 60_000 },
  new SegmentSettlements(settled),
);

let next = 0;
/** One block: a payload to each hook, each delivered, settled to disk; a prune every 30. */
async function block(): Promise<void> {
  const n = next++;
  state.enqueue(Array.from({ length: HOOKS }, (_, h) => payload(n, h)));
  await segments.flush();
  for (const { payload: p } of state.due(at(n) + 30, 5000, new Set())) {
    const attempt = { at: at(n) + 30, status_code: 200, error: null, latency_ms: 10 };
    state.recordAttempt(p.id, attempt, { state: 'delivered' });
  }
  state.settleToDisk();
  await settled.flush();
  if (n % 30 === 0) state.prune(at(n) - 5 * 60_000, at(n));
}

for (let n = 0; n < BLOCKS; n++) await block();
console.log(`# outbox snapshot memory: ${HOOKS} hooks, ${BLOCKS} blocks sent to each before the snapshot`);
console.log(machineLine());

// The snapshot's slices, a block after the first and after every EVERY-th, as a compaction meets them.
let base = inUse();
const snapshot = StateSnapshot.take(state);
let slices = 0;
let bytes = 0;
let withSnapshot = 0;
const points: number[] = [];
for (const slice of snapshot.slices()) {
  bytes += slice.length;
  if (slices % EVERY === 1 || slices === 1) {
    await block();
    points.push(slices);
  }
  slices++;
  withSnapshot = Math.max(withSnapshot, inUse() - base);
}
snapshot.release();
const blocksDuring = points.length;

// The same blocks without a snapshot.
base = inUse();
let alone = 0;
for (let i = 0; i < slices; i++) {
  if (i % EVERY === 1 || i === 1) await block();
  alone = Math.max(alone, inUse() - base);
}
console.log(
  '\n| snapshot MiB | slices | blocks during it | heap + external rise, MiB | the blocks alone, MiB | held by the snapshot, MiB |',
);
console.log('|---:|---:|---:|---:|---:|---:|');
console.log(
  `| ${MiB(bytes)} | ${slices} | ${blocksDuring} | ${MiB(withSnapshot)} | ${MiB(alone)} | ${MiB(withSnapshot - alone)} |`,
);
await segments.close();
await settled.close();
await rm(dir, { recursive: true, force: true });
