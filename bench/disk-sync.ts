// Disk sync: the floor under the observer's answer. The observer answers the node once its post is
// durable, so no post can be answered faster than the disk makes 4 KiB durable. This bench times
// exactly that, in two threads at once, every 12 ms each, in the folder given: one appends to a
// growing file (a file system journal commit on each sync), one overwrites a file written full of
// zeros beforehand (what the embedded event log does: no size or allocation to commit). Run it
// alone on the machine to learn the disk's own stalls, or beside the server to see what it adds.
//
// Run: npx tsx bench/disk-sync.ts [--seconds 300] [--dir FOLDER] [--interval-ms 12]
import { closeSync, fsyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { percentile } from './support/deliver-report.js';
import { machineLine } from './support/measure.js';

type Mode = 'growing file' | 'written zeros';
type Job = { mode: Mode; path: string; seconds: number; intervalMs: number };
const RECORD_BYTES = 4096;
const ZEROS_BYTES = 64 * 1024 * 1024;

// The timing loop, run in a worker thread of its own (plain JavaScript, so no loader is needed there):
// sync a record every `intervalMs` for `seconds`, and post the milliseconds each write and sync took.
const TIME_SYNCS = `
const { closeSync, fdatasyncSync, openSync, writeSync } = require('node:fs');
const { parentPort, workerData: job } = require('node:worker_threads');
const fd = openSync(job.path, job.mode === 'written zeros' ? 'r+' : 'w+');
const record = Buffer.alloc(${RECORD_BYTES}, 1);
const times = [];
const end = Date.now() + job.seconds * 1000;
let at = 0;
const tick = () => {
  if (Date.now() >= end) { closeSync(fd); parentPort.postMessage(times); return; }
  const start = performance.now();
  writeSync(fd, record, 0, record.length, job.mode === 'written zeros' ? at : null);
  fdatasyncSync(fd);
  times.push(performance.now() - start);
  at = (at + record.length) % ${ZEROS_BYTES};
  setTimeout(tick, job.intervalMs);
};
tick();
`;

/** A file of `ZEROS_BYTES` zeros, written and synced. */
function writeZeros(path: string): void {
  const fd = openSync(path, 'w');
  const zeros = Buffer.alloc(1024 * 1024);
  for (let at = 0; at < ZEROS_BYTES; at += zeros.length) writeSync(fd, zeros, 0, zeros.length, at);
  fsyncSync(fd);
  closeSync(fd);
}

function row(mode: Mode, times: number[]): string {
  const over = (ms: number) => times.filter((t) => t > ms).length;
  const fmt = (ms: number) => ms.toFixed(1);
  return `| ${mode} | ${times.length} | ${fmt(percentile(times, 0.5))} | ${fmt(percentile(times, 0.99))} | ${fmt(Math.max(...times))} | ${over(20)} | ${over(50)} |`;
}

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '300' },
    dir: { type: 'string' },
    'interval-ms': { type: 'string', default: '12' },
  },
});
const dir = mkdtempSync(join(values.dir ?? tmpdir(), 'stackhooks-disk-sync-'));
const seconds = Number(values.seconds);
const intervalMs = Number(values['interval-ms']);
console.log(`# disk sync: 4 KiB made durable every ${intervalMs} ms for ${seconds} s in ${dir}`);
console.log(machineLine());
const modes: Mode[] = ['growing file', 'written zeros'];
try {
  // Written before either thread starts timing, so its own flush is not among the times.
  writeZeros(join(dir, `sync-${modes.indexOf('written zeros')}`));
  const results = await Promise.all(
    modes.map(
      (mode, i) =>
        new Promise<number[]>((resolve, reject) => {
          const job: Job = { mode, path: join(dir, `sync-${i}`), seconds, intervalMs };
          const worker = new Worker(TIME_SYNCS, { eval: true, workerData: job });
          worker.once('message', resolve);
          worker.once('error', reject);
        }),
    ),
  );
  console.log('\n| file | syncs | p50 ms | p99 ms | max ms | over 20 ms | over 50 ms |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  modes.forEach((mode, i) => console.log(row(mode, results[i])));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
