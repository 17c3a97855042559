// Signer messages: CPU time to read the recorded regtest node's /stackerdb_chunks posts
// (signer-metrics-api/stackerdb-sample-events.tsv.gz, 3,141 posts, 3,169 slots), whole
// (`readStackerDbPost`: decode and key recovery) and in its two parts, by message kind, so the
// cost a mainnet node's signer traffic puts on the ingest loop can be judged. CPU time of this
// process (process.cpuUsage), the best of `--rounds` passes.
// Run: npx tsx bench/signer-messages.ts [--rounds N]   (prints Markdown for docs/benchmarks.md)
// Exits 2 when the fixtures are absent.
import { parseArgs } from 'node:util';
import { recoverSignerKey } from '../core/stacks-codec/signer-message/recover-signer-key.js';
import { decodeSignerMessage } from '../core/stacks-codec/signer-message/signer-message.js';
import { readStackerDbPost, slotDigest } from '../core/stacks-codec/signer-message/stackerdb-chunks.js';
import { fixturesDir, readPostedRequests } from '../test/support/fixtures.js';
import { loadAverage, machineLine, ownCpuSeconds } from './support/measure.js';

type Slot = { sig: string; data: string; slot_id: number; slot_version: number };

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' } } });
const rounds = Number(values.rounds);

if (!fixturesDir()) {
  console.error('no fixtures: set STACKHOOKS_FIXTURES');
  process.exit(2);
}

const posts: unknown[] = [];
for (const request of await readPostedRequests('signer-metrics-api/stackerdb-sample-events.tsv.gz'))
  if (request.path === '/stackerdb_chunks') posts.push(request.body);
const slots = posts.flatMap((post) => (post as { modified_slots: Slot[] }).modified_slots);
const bytes = slots.map((slot) => Buffer.from(slot.data, 'hex'));
const kinds = ['BlockProposal', 'BlockResponse', 'BlockPushed', 'MockProposal', 'MockSignature', 'MockBlock'];

/** The least CPU time (ms) `run` took over the rounds. */
function bestCpuMs(run: () => void): number {
  let best = Infinity;
  for (let i = 0; i < rounds; i++) {
    const before = ownCpuSeconds();
    run();
    best = Math.min(best, (ownCpuSeconds() - before) * 1000);
  }
  return best;
}

const loadBefore = loadAverage();
const whole = bestCpuMs(() => posts.forEach((post) => readStackerDbPost(post)));
const recovery = bestCpuMs(() =>
  slots.forEach((slot, i) =>
    recoverSignerKey(slotDigest(slot.slot_id, slot.slot_version, bytes[i]!), Buffer.from(slot.sig, 'hex')),
  ),
);
const rows = kinds.map((kind) => {
  const mine = bytes.filter((b) => kinds[b[0]!] === kind);
  const ms = bestCpuMs(() => mine.forEach((b) => decodeSignerMessage(b)));
  const avgBytes = mine.reduce((n, b) => n + b.length, 0) / Math.max(1, mine.length);
  return { kind, count: mine.length, ms, avgBytes };
});

console.log(`Machine: ${machineLine()}`);
console.log(`Load before: ${loadBefore}; after: ${loadAverage()}; best of ${rounds} rounds, CPU time.\n`);
console.log('| part | slots | CPU ms | µs a slot |');
console.log('|---|---:|---:|---:|');
const line = (name: string, count: number, ms: number) =>
  console.log(
    `| ${name} | ${count.toLocaleString('en')} | ${ms.toFixed(0)} | ${((ms * 1000) / count).toFixed(0)} |`,
  );
line(`whole posts (${posts.length.toLocaleString('en')}): decode + key recovery`, slots.length, whole);
line('key recovery alone (slot digest + secp256k1 recover)', slots.length, recovery);
for (const row of rows)
  line(`decode alone: ${row.kind} (${row.avgBytes.toFixed(0)} bytes avg)`, row.count, row.ms);
