// Issue 6's benchmark: the archive import and webhook delivery on Postgres next to the embedded
// default, in one run. Import: `runImport` of the small-blocks archive file (batches of 500 blocks)
// into a fresh schema and into a fresh data folder, blocks/s. Delivery: 100 hooks × 100 blocks with
// one STX transfer = 10,000 payloads queued first, then sent to a receiver process by 1 and by 2
// worker processes (`--role worker`, each on a fresh schema), and by one embedded-default process.
// Run: npx tsx bench/postgres.ts [--import-rounds N] [--delivery-rounds N]   (prints Markdown)
// Exits 2 when PostgreSQL does not answer; otherwise 0 unless something crashes.
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { writeExampleChain } from '../apps/cli/example-chain.js';
import { drainEmbedded, drainWithWorkers, transferChain, type DeliveryRun } from './support/pg-delivery.js';
import { importOnce, type ImportRun } from './support/pg-import.js';
import { startPgReceiver } from './support/pg-receiver-process.js';
import { benchDatabaseAnswers } from './support/pg-schema.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SAMPLE = 'signer-metrics-api/stackerdb-sample-events.tsv.gz';
const HOOKS = 100;
const BLOCKS = 100;
const IMPORT_TARGET = 1_000;
const DELIVERY_TARGET = 1_000;

const { values } = parseArgs({
  options: {
    'import-rounds': { type: 'string', default: '3' },
    'delivery-rounds': { type: 'string', default: '1' },
  },
});
if (!(await benchDatabaseAnswers())) {
  console.error('PostgreSQL does not answer at 127.0.0.1:5432 (database test)');
  process.exit(2);
}

const loadBefore = loadavg();
const scratch = await mkdtemp(join(tmpdir(), 'stackhooks-bench-pg-'));
try {
  const { file, source } = await archiveFile(scratch);
  console.error(`import file: ${source}`);

  const pgImports: ImportRun[] = [];
  const fsImports: ImportRun[] = [];
  for (let round = 0; round < Number(values['import-rounds']); round++) {
    pgImports.push(await importOnce(file, true));
    fsImports.push(await importOnce(file, false));
    console.error(
      `import round ${round + 1}: pg ${fmt(pgImports.at(-1)!.rate)}, embedded ${fmt(fsImports.at(-1)!.rate)} blocks/s`,
    );
  }

  const blocks = await transferChain(BLOCKS);
  const receiver = await startPgReceiver();
  const drains = new Map<string, DeliveryRun[]>([
    ['pg1', []],
    ['pg2', []],
    ['embedded', []],
  ]);
  try {
    for (let round = 0; round < Number(values['delivery-rounds']); round++) {
      for (const workers of [1, 2]) {
        const run = await drainWithWorkers({ workers, hooks: HOOKS, blocks, receiver });
        drains.get(`pg${workers}`)!.push(run);
        console.error(`delivery, ${workers} pg worker(s): ${describe(run)}`);
      }
      const run = await drainEmbedded({ hooks: HOOKS, blocks, receiver });
      drains.get('embedded')!.push(run);
      console.error(`delivery, embedded: ${describe(run)}`);
    }
  } finally {
    await receiver.stop();
  }
  const loadAfter = loadavg();

  const pgImport = median(pgImports.map((r) => r.rate));
  const fsImport = median(fsImports.map((r) => r.rate));
  const pgImportWall = median(pgImports.map((r) => r.wallRate));
  const fsImportWall = median(fsImports.map((r) => r.wallRate));
  const pg1 = median(drains.get('pg1')!.map((r) => r.rate));
  const pg2 = median(drains.get('pg2')!.map((r) => r.rate));
  const pg2Steady = median(drains.get('pg2')!.map((r) => r.steadyRate));
  const embedded = median(drains.get('embedded')!.map((r) => r.rate));
  const first = pgImports[0];
  const cpu = cpus();

  console.log(`## bench/postgres.ts (issue 6)\n`);
  console.log(
    `Machine: ${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores, ` +
      `${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}. ` +
      `/proc/loadavg before: \`${loadBefore}\`, after: \`${loadAfter}\`.`,
  );
  console.log(
    `Import file: ${source} (${first.blocks} \`/new_block\` lines, ${first.archived} distinct blocks); ` +
      `median of ${pgImports.length} rounds, each on a fresh schema / data folder. ` +
      `Delivery: ${HOOKS} hooks × ${BLOCKS} blocks = ${(HOOKS * BLOCKS).toLocaleString('en-US')} payloads queued ` +
      `before sending, receiver in its own process; timed from the first worker ready (or first arrival) ` +
      `to the last arrival; median of ${drains.get('pg1')!.length} round(s).\n`,
  );
  const row = (measure: string, value: number, unit: string, target?: number) => [
    measure,
    `${fmt(value)} ${unit}`,
    target === undefined ? '—' : `≥ ${fmt(target)} ${unit}`,
    target === undefined ? '—' : value >= target ? 'yes' : '**no**',
  ];
  const rows = [
    row('import, Postgres (runImport, batches of 500)', pgImport, 'blocks/s', IMPORT_TARGET),
    row('import, embedded default', fsImport, 'blocks/s'),
    ['import ratio Postgres / embedded', ratio(pgImport, fsImport), '—', '—'],
    row('import incl. opening + migrating, Postgres', pgImportWall, 'blocks/s'),
    row('import incl. opening, embedded', fsImportWall, 'blocks/s'),
    row('delivery, Postgres, 1 worker process', pg1, 'payloads/s'),
    row('delivery, Postgres, 2 worker processes', pg2, 'payloads/s', DELIVERY_TARGET),
    row('delivery, Postgres, 2 workers, once both ready', pg2Steady, 'payloads/s', DELIVERY_TARGET),
    row('delivery, embedded default (1 process)', embedded, 'payloads/s'),
    ['delivery ratio Postgres 1 worker / embedded', ratio(pg1, embedded), '—', '—'],
    ['delivery ratio Postgres 2 workers / embedded', ratio(pg2, embedded), '—', '—'],
    ['delivery scaling 2 workers / 1 worker', ratio(pg2, pg1), '—', '—'],
  ];
  console.log(markdown(['Measure', 'Value', 'Target', 'Met?'], rows));
  const notes: string[] = [];
  for (const [name, runs] of drains) {
    for (const run of runs) {
      notes.push(`${name}: ${describe(run)}`);
    }
  }
  console.log(`\nDetails: ${notes.join('; ')}.`);
} finally {
  await rm(scratch, { recursive: true, force: true });
}

/** The small-blocks fixture when present, else a generated example chain of 2,000 blocks. */
async function archiveFile(dir: string): Promise<{ file: string; source: string }> {
  const fixtures = process.env.STACKHOOKS_FIXTURES ?? resolve(ROOT, '../shared/fixtures');
  const sample = join(fixtures, SAMPLE);
  if (existsSync(sample)) return { file: sample, source: `fixture \`${SAMPLE}\`` };
  const file = join(dir, 'example-chain.tsv');
  await writeExampleChain(file, 2_000, 'mainnet');
  return {
    file,
    source: 'generated example chain (`stackhooks example-chain --blocks 2000`; fixture absent)',
  };
}

function describe(run: DeliveryRun): string {
  const done =
    run.incomplete === undefined ? '' : `, INCOMPLETE: ${run.incomplete} arrived before the timeout`;
  return (
    `${fmt(run.rate)}/s over ${run.seconds.toFixed(2)} s` +
    (run.startupSeconds > 0 ? ` (${fmt(run.steadyRate)}/s once all workers were ready), ` : ', ') +
    `sender CPU ${run.senderCpuSeconds.toFixed(1)} s (${run.senderStartupCpuSeconds.toFixed(1)} s of it start-up), PostgreSQL CPU ${run.postgresCpuSeconds.toFixed(1)} s, ` +
    `worker start-up ${run.startupSeconds.toFixed(2)} s, ` +
    `queueing ${run.queueSeconds.toFixed(1)} s, error lines ${run.errorLines}${done}`
  );
}

function loadavg(): string {
  try {
    return readFileSync('/proc/loadavg', 'utf8').trim();
  } catch {
    return 'n/a';
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function ratio(a: number, b: number): string {
  return `${(a / b).toFixed(2)}×`;
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

function markdown(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
