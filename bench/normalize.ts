// Normalization speed on the busiest recorded block (poisonmicroblock.tsv: 63 txs, 585 events):
// the bare `deserializeTransaction` rate versus the full `normalizeBlock` rate, in transactions a
// second on one core. Run: npx tsx bench/normalize.ts [seconds-per-round]
import { deserializeTransaction } from '@stacks/transactions';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NodeBlock } from '../core/stacks-codec/node-block.js';
import { normalizeBlock } from '../core/stacks-codec/normalize-block.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const fixtures = process.env.STACKHOOKS_FIXTURES ?? join(root, '..', 'shared', 'fixtures');
const file = join(fixtures, 'stacks-blockchain-api', 'poisonmicroblock.tsv');
if (!existsSync(file)) {
  console.error(`missing ${file}: set STACKHOOKS_FIXTURES`);
  process.exit(1);
}
const [, , , ...json] = readFileSync(file, 'utf8').split('\n')[0].split('\t');
const block = JSON.parse(json.join('\t')) as NodeBlock;
const rawTxs = block.transactions.map((tx) => tx.raw_tx.slice(2));
const seconds = Number(process.argv[2] ?? 2);
const rounds = 5;

/** Transactions a second of `run` (which handles `perRun` transactions), best of the rounds. */
function rate(run: () => void, perRun: number): number {
  let best = 0;
  for (let round = 0; round < rounds; round++) {
    let runs = 0;
    const start = performance.now();
    let elapsed = 0;
    while (elapsed < seconds * 1000) {
      run();
      runs++;
      elapsed = performance.now() - start;
    }
    best = Math.max(best, (runs * perRun) / (elapsed / 1000));
  }
  return best;
}

const context = { network: 'mainnet' as const, lookupAbi: () => undefined };
// Warm up both paths so the JIT has compiled them before measuring.
for (let i = 0; i < 50; i++) {
  for (const raw of rawTxs) deserializeTransaction(raw);
  normalizeBlock(block, context);
}

// Interleave the two measurements so background load hits both alike.
const bare: number[] = [];
const bareBytes: number[] = [];
const full: number[] = [];
for (let i = 0; i < 3; i++) {
  bare.push(rate(() => rawTxs.forEach((raw) => deserializeTransaction(raw)), rawTxs.length));
  // normalizeBlock hands the library bytes parsed by Buffer: the library's own hex parser is slow.
  bareBytes.push(
    rate(() => rawTxs.forEach((raw) => deserializeTransaction(Buffer.from(raw, 'hex'))), rawTxs.length),
  );
  full.push(rate(() => normalizeBlock(block, context), rawTxs.length));
}
const bareRate = Math.max(...bare);
const fullRate = Math.max(...full);
const percent = (rate: number) => `${((rate / bareRate) * 100).toFixed(0)}% of bare`;
console.log(
  `block: ${block.transactions.length} txs, ${block.events.length} events; best of ${3 * rounds} rounds of ${seconds}s`,
);
console.log(`bare deserializeTransaction(hex):   ${bareRate.toFixed(0)} tx/s`);
console.log(
  `deserializeTransaction(Buffer):     ${Math.max(...bareBytes).toFixed(0)} tx/s (${percent(Math.max(...bareBytes))})`,
);
console.log(`normalizeBlock:                     ${fullRate.toFixed(0)} tx/s (${percent(fullRate)})`);
