// Compare two heap snapshots of one process (taken after a full collection, e.g. by
// `bench/soak.ts --heap-snapshots DIR`): the heap's total at each, the kinds of object that grew
// most between them (count and own bytes), and the largest single objects of the second.
// Run: npx tsx bench/heap-compare.ts FIRST.heapsnapshot SECOND.heapsnapshot [--top 25]
import { parseArgs } from 'node:util';
import { heapCensus } from './support/heap-census.js';

const { values, positionals } = parseArgs({
  options: { top: { type: 'string', default: '25' } },
  allowPositionals: true,
});
const top = Number(values.top);
if (positionals.length !== 2) throw new Error('usage: heap-compare.ts FIRST SECOND [--top N]');
const [first, second] = [await heapCensus(positionals[0]), await heapCensus(positionals[1], top)];
const MiB = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

console.log(`heap after a full collection: ${MiB(first.total)} MiB, then ${MiB(second.total)} MiB`);
console.log('\n| kind | count | count change | MiB | MiB change |');
console.log('|---|---:|---:|---:|---:|');
const kinds = new Set([...first.census.keys(), ...second.census.keys()]);
const growth = [...kinds]
  .map((kind) => {
    const a = first.census.get(kind) ?? { count: 0, bytes: 0 };
    const b = second.census.get(kind) ?? { count: 0, bytes: 0 };
    return { kind, b, count: b.count - a.count, bytes: b.bytes - a.bytes };
  })
  .sort((x, y) => y.bytes - x.bytes)
  .slice(0, top);
for (const g of growth)
  console.log(`| ${g.kind} | ${g.b.count} | ${g.count} | ${MiB(g.b.bytes)} | ${MiB(g.bytes)} |`);
console.log('\n| largest objects of the second | MiB | held by |');
console.log('|---|---:|---|');
for (const o of second.largest) console.log(`| ${o.kind} | ${MiB(o.bytes)} | ${o.heldBy} |`);
