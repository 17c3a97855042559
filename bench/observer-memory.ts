// What big observer bodies cost a running server in memory: `--bodies` posts of `--mib` MiB each
// (JSON shaped like a very busy block), all at once to /new_block, each posted again after a 503
// as the node does. Reports the server's resident memory idle, at its peak (VmHWM) and 3 s after
// the last body was stored, and how many posts were answered 503 first.
// Run: npx tsx bench/observer-memory.ts [--bodies 10] [--mib 63]   (default 4 × 32 MiB, under a minute)
import { rm } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { bigBlockBody, postAsNode, residentMemory } from '../test/support/big-posts.js';
import { freePort, spawnServer } from '../test/support/server-process.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import { loadAverage, machineLine } from './support/measure.js';

const { values } = parseArgs({ options: { bodies: { type: 'string' }, mib: { type: 'string' } } });
const bodies = Number(values.bodies ?? 4);
const mib = Number(values.mib ?? 32);

const dataDir = await makeTempDir('stackhooks-bench-memory-');
const observerPort = await freePort();
const loadBefore = loadAverage();
const server = await spawnServer({
  STACKHOOKS_DATA_DIR: dataDir,
  STACKHOOKS_OBSERVER_PORT: String(observerPort),
});
const pid = server.child.pid as number;
try {
  const body = bigBlockBody(mib * 1024 * 1024);
  await new Promise((r) => setTimeout(r, 1000));
  const idle = residentMemory(pid).nowMiB;
  const started = performance.now();
  const results = await Promise.all(
    Array.from({ length: bodies }, () => postAsNode(`http://127.0.0.1:${observerPort}/new_block`, body)),
  );
  const seconds = (performance.now() - started) / 1000;
  await new Promise((r) => setTimeout(r, 3000));
  const { nowMiB, peakMiB } = residentMemory(pid);
  const refused = results.filter((r) => r.refusals > 0).length;
  const stored = results.filter((r) => r.status === 200).length;
  console.log(`${machineLine()}; load average ${loadBefore} before, ${loadAverage()} after`);
  console.log('');
  console.log(
    '| posts at once | body | stored | posts answered 503 first | all stored in | RSS idle | RSS peak | RSS 3 s after |',
  );
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  console.log(
    `| ${bodies} | ${mib} MiB | ${stored} | ${refused} | ${seconds.toFixed(1)} s | ${idle.toFixed(0)} MiB | ${peakMiB.toFixed(0)} MiB | ${nowMiB.toFixed(0)} MiB |`,
  );
} finally {
  server.child.kill('SIGTERM');
  await server.exited;
  await rm(dataDir, { recursive: true, force: true });
}
