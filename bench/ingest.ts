// Import speed and memory (issue 3): `runImport` (what `stackhooks import FILE` runs) on the recorded
// stackerdb-sample-events.tsv.gz (small Nakamoto testnet blocks) and on 200 chained copies of the busy
// poisonmicroblock.tsv block, each import in its own child process so that its peak RSS is its own;
// beside it, in the same run, the bare `deserializeTransaction` rate of the same 63 transactions, and
// each stage of both imports timed on its own (TSV read, JSON.parse, normalizeBlock, archive put).
// Run: npx tsx bench/ingest.ts [--rounds N] [--seconds S]   (prints Markdown for docs/benchmarks.md)
// Exits 2 when the fixtures are absent; otherwise 0 unless something crashes (benches fail no build).
import { deserializeTransaction } from '@stacks/transactions';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { readReplayTsv } from '../adapters/ingest-stacks-node/index.js';
import { silentLogger } from '../adapters/system/index.js';
import { runImport } from '../apps/cli/import-command.js';
import { createStackhooks } from '../apps/server/container.js';
import type { NodeBlock } from '../core/chain/node-block.js';
import { normalizeBlock } from '../core/chain/normalize-block.js';
import type { Network } from '../core/hooks/definition.js';
import { fixturesDir } from '../test/support/fixtures.js';
import { readFirstNodeBlock, writeBusyTsv } from './support/busy-blocks.js';
import { timeImportStages } from './support/import-stages.js';
import { renderIngestReport, type ImportRun, type IngestRuns } from './support/ingest-report.js';
import {
  loadAverage,
  machineLine,
  ownCpuSeconds,
  peakRssKb,
  runChild,
  timedRate,
  watchOtherLoad,
} from './support/measure.js';

const script = fileURLToPath(import.meta.url);
const root = resolve(dirname(script), '..');
const STACKERDB = join('signer-metrics-api', 'stackerdb-sample-events.tsv.gz');
const BUSY = join('stacks-blockchain-api', 'poisonmicroblock.tsv');
const COPIES = 200;

if (process.argv[2] === '--child') await child(process.argv.slice(3));
else await main();

/** In a child process: one import of `file` into `dataDir` (or none, for the baseline), then one JSON line. */
async function child([mode, file, network, dataDir]: string[]): Promise<void> {
  if (mode === 'baseline') {
    const run: ImportRun = {
      blocks: 0,
      archived: 0,
      seconds: 0,
      ownSeconds: 0,
      maxRssKb: peakRssKb(),
      cpuSeconds: ownCpuSeconds(),
    };
    console.log(JSON.stringify(run));
    return;
  }
  const start = performance.now();
  const summary =
    mode === 'one-by-one'
      ? await ingestOneByOne(file, dataDir, network as Network)
      : await runImport(file, { dataDir, network: network as Network });
  const run: ImportRun = {
    blocks: summary.blocks,
    archived: summary.archived,
    seconds: (performance.now() - start) / 1000,
    ownSeconds: summary.seconds,
    maxRssKb: peakRssKb(),
    cpuSeconds: ownCpuSeconds(),
  };
  console.log(JSON.stringify(run));
}

/**
 * The same file through the same service, but each block parsed, normalized and archived before the
 * next is read (`ingestNodeBlock` without publishing, the import loop before it batched): what
 * holding a batch costs in memory and time. For comparison only; the targets are judged on runImport.
 */
async function ingestOneByOne(file: string, dataDir: string, network: Network) {
  const stackhooks = await createStackhooks({ dataDir, network, adapters: { logger: silentLogger } });
  try {
    const before = await stackhooks.ingest.archivedBlocks();
    const start = performance.now();
    let blocks = 0;
    for await (const line of readReplayTsv(file)) {
      if (line.path !== '/new_block') continue;
      await stackhooks.ingest.ingestNodeBlock(JSON.parse(line.body) as NodeBlock, 0, false);
      blocks++;
    }
    const archived = (await stackhooks.ingest.archivedBlocks()) - before;
    return { blocks, archived, seconds: (performance.now() - start) / 1000 };
  } finally {
    await stackhooks.close();
  }
}

/** The commit measured, and whether the code under it had uncommitted changes (a shared tree). */
function codeVersion(): string {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
    const dirty = git('status', '--porcelain', '--', 'core', 'adapters', 'apps') !== '';
    return `${git('rev-parse', '--short', 'HEAD')}${dirty ? ' with uncommitted changes in core/, adapters/ or apps/' : ''}`;
  } catch {
    return 'unknown (no git)';
  }
}

/** `/new_block` posts, distinct blocks and transactions of a replay file. */
async function countBlocks(file: string): Promise<{ posts: number; distinct: number; txs: number }> {
  const hashes = new Set<string>();
  let posts = 0;
  let txs = 0;
  for await (const line of readReplayTsv(file)) {
    if (line.path !== '/new_block') continue;
    const block = JSON.parse(line.body) as NodeBlock;
    posts++;
    txs += block.transactions.length;
    hashes.add(block.index_block_hash.toLowerCase());
  }
  return { posts, distinct: hashes.size, txs };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { rounds: { type: 'string', default: '3' }, seconds: { type: 'string', default: '2' } },
  });
  const rounds = Math.max(1, Math.floor(Number(values.rounds)) || 3);
  const seconds = Math.max(0.1, Number(values.seconds) || 2);
  const fixtures = fixturesDir();
  const smallFile = fixtures && join(fixtures, STACKERDB);
  const busySource = fixtures && join(fixtures, BUSY);
  if (!smallFile || !busySource || !existsSync(smallFile) || !existsSync(busySource)) {
    console.error(
      `bench/ingest needs ${STACKERDB} and ${BUSY} under the fixtures folder ` +
        `(${fixtures ?? 'none found'}): set STACKHOOKS_FIXTURES or provide ../shared/fixtures`,
    );
    process.exit(2);
  }
  const loadBefore = loadAverage();
  const wholeRun = watchOtherLoad();
  const temp = await mkdtemp(join(tmpdir(), 'stackhooks-bench-ingest-'));
  try {
    const small = await countBlocks(smallFile);
    const recorded = await readFirstNodeBlock(busySource);
    const busyFile = join(temp, `busy-${COPIES}.tsv`);
    await writeBusyTsv(busyFile, recorded, COPIES);
    const emptyFile = join(temp, 'empty.tsv');
    await writeFile(emptyFile, '');
    const txsPerBlock = recorded.block.transactions.length;
    const rawTxs = recorded.block.transactions.map((tx) => tx.raw_tx.slice(2));
    const context = { network: 'mainnet' as const, lookupAbi: () => undefined };

    const runs: IngestRuns = {
      baseline: [],
      empty: [],
      small: [],
      busy: [],
      decode: [],
      normalize: [],
      smallStages: [],
      busyStages: [],
      otherCores: [],
      busyOneByOne: [],
    };
    const importIn = async (file: string, network: Network, mode = 'import'): Promise<ImportRun> => {
      const dataDir = await mkdtemp(join(temp, 'data-'));
      try {
        return await runChild<ImportRun>(script, ['--child', mode, file, network, dataDir], root);
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    };
    // Every measurement once a round, interleaved, so that a burst of load on the shared machine
    // hits all of them alike instead of one whole scenario.
    const cpuOf = (children: ImportRun[]) => children.reduce((sum, run) => sum + run.cpuSeconds, 0);
    for (let round = 1; round <= rounds; round++) {
      console.error(`round ${round} of ${rounds} (load ${loadAverage()})`);
      const thisRound = watchOtherLoad();
      const children = [
        await runChild<ImportRun>(script, ['--child', 'baseline'], root),
        await importIn(emptyFile, 'mainnet'),
        await importIn(smallFile, 'testnet'),
        await importIn(busyFile, 'mainnet'),
        await importIn(busyFile, 'mainnet', 'one-by-one'),
      ];
      runs.decode.push(
        timedRate(() => rawTxs.forEach((raw) => deserializeTransaction(raw)), txsPerBlock, seconds),
      );
      runs.normalize.push(timedRate(() => normalizeBlock(recorded.block, context), txsPerBlock, seconds));
      runs.smallStages.push(await timeImportStages(smallFile, 'testnet', temp, seconds));
      runs.busyStages.push(await timeImportStages(busyFile, 'mainnet', temp, seconds));
      const [baseline, empty, smallRun, busyRun, oneByOne] = children;
      runs.busyOneByOne.push(oneByOne);
      runs.baseline.push(baseline);
      runs.empty.push(empty);
      runs.small.push(smallRun);
      runs.busy.push(busyRun);
      runs.otherCores.push(thisRound.stop(cpuOf(children)).cores);
    }
    const other = wholeRun.stop(
      cpuOf([...runs.baseline, ...runs.empty, ...runs.small, ...runs.busy, ...runs.busyOneByOne]),
    );

    console.log(
      renderIngestReport({
        machine: machineLine(),
        code: codeVersion(),
        loadBefore,
        loadAfter: loadAverage(),
        wallSeconds: other.seconds,
        otherCores: other.cores,
        rounds,
        seconds,
        small: { ...small, file: STACKERDB },
        busy: { copies: COPIES, txsPerBlock, events: recorded.block.events.length },
        runs,
      }),
    );
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}
