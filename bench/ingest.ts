// Import speed and memory (issue 3): `runImport` (what `stackhooks import FILE` runs) on the recorded
// stackerdb-sample-events.tsv.gz (small Nakamoto testnet blocks) and on 200 chained copies of the busy
// poisonmicroblock.tsv block; in the same run, the bare `deserializeTransaction` rate of the same 63
// transactions, `normalizeBlock` alone, and each stage of both imports timed on its own (TSV read,
// JSON.parse, normalizeBlock, archive put). Every measurement runs in its own child process
// (`node --import tsx bench/ingest.ts --child ...`), so a peak RSS is that scenario's alone and no
// measurement inherits another's heap.
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
import type { NodeBlock } from '../core/stacks-codec/node-block.js';
import { normalizeBlock } from '../core/stacks-codec/normalize-block.js';
import type { Network } from '../core/hooks/definition.js';
import { fixturesDir } from '../test/support/fixtures.js';
import { readFirstNodeBlock, writeBusyTsv } from './support/busy-blocks.js';
import { timeImportStages, type StageTimes } from './support/import-stages.js';
import { renderIngestReport, type ImportRun, type IngestRuns, type Rate } from './support/ingest-report.js';
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

/** What the `loops` child reports: the in-process rates on the busy block. */
type LoopsRun = { decode: Rate; normalize: Rate; normalizeWithMemo: Rate; cpuSeconds: number };
/** What the `stages` child reports. */
type StagesRun = StageTimes & { cpuSeconds: number };

/**
 * In a child process, one measurement, then one JSON line: `baseline` (nothing), `import` or
 * `one-by-one` FILE NETWORK DATADIR, `loops` BUSY_TSV SECONDS, `stages` FILE NETWORK TEMPDIR SECONDS.
 * Every measurement gets a fresh process, so none inherits another's heap or JIT state.
 */
async function child([mode, ...args]: string[]): Promise<void> {
  const report = (result: object) =>
    console.log(JSON.stringify({ ...result, maxRssKb: peakRssKb(), cpuSeconds: ownCpuSeconds() }));
  if (mode === 'baseline') return report({ blocks: 0, archived: 0, seconds: 0, ownSeconds: 0 });
  if (mode === 'loops') {
    const [file, seconds] = args;
    const { block } = await readFirstNodeBlock(file);
    const rawTxs = block.transactions.map((tx) => tx.raw_tx.slice(2));
    const context = { network: 'mainnet' as const, lookupAbi: () => undefined };
    const perBlock = block.transactions.length;
    const decode = timedRate(() => rawTxs.forEach((raw) => deserializeTransaction(raw)), perBlock, +seconds);
    const normalize = timedRate(() => normalizeBlock(block, context), perBlock, +seconds);
    // As the import normalizes (BlockArchiver keeps one address memo for all blocks): here every
    // address is known after the first repeat, which is the busy file's case, not a real chain's.
    const withMemo = { ...context, addresses: new Map<string, string>() };
    const normalizeWithMemo = timedRate(() => normalizeBlock(block, withMemo), perBlock, +seconds);
    return report({ decode, normalize, normalizeWithMemo });
  }
  if (mode === 'stages') {
    const [file, network, tempDir, seconds] = args;
    return report(await timeImportStages(file, network as Network, tempDir, +seconds));
  }
  const [file, network, dataDir] = args;
  const start = performance.now();
  const summary =
    mode === 'one-by-one'
      ? await ingestOneByOne(file, dataDir, network as Network)
      : await runImport(file, { dataDir, network: network as Network });
  report({
    blocks: summary.blocks,
    archived: summary.archived,
    seconds: (performance.now() - start) / 1000,
    ownSeconds: summary.seconds,
  });
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

    const runs: IngestRuns = {
      baseline: [],
      empty: [],
      small: [],
      busy: [],
      decode: [],
      normalize: [],
      normalizeWithMemo: [],
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
    const childCpu: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      console.error(`round ${round} of ${rounds} (load ${loadAverage()})`);
      const thisRound = watchOtherLoad();
      const [baseline, empty, smallRun, busyRun, oneByOne] = [
        await runChild<ImportRun>(script, ['--child', 'baseline'], root),
        await importIn(emptyFile, 'mainnet'),
        await importIn(smallFile, 'testnet'),
        await importIn(busyFile, 'mainnet'),
        await importIn(busyFile, 'mainnet', 'one-by-one'),
      ];
      const loops = await runChild<LoopsRun>(script, ['--child', 'loops', busySource, String(seconds)], root);
      const stagesOf = (file: string, network: Network) =>
        runChild<StagesRun>(script, ['--child', 'stages', file, network, temp, String(seconds)], root);
      const smallStages = await stagesOf(smallFile, 'testnet');
      const busyStages = await stagesOf(busyFile, 'mainnet');
      runs.baseline.push(baseline);
      runs.empty.push(empty);
      runs.small.push(smallRun);
      runs.busy.push(busyRun);
      runs.busyOneByOne.push(oneByOne);
      runs.decode.push(loops.decode);
      runs.normalize.push(loops.normalize);
      runs.normalizeWithMemo.push(loops.normalizeWithMemo);
      runs.smallStages.push(smallStages);
      runs.busyStages.push(busyStages);
      childCpu.push(
        [baseline, empty, smallRun, busyRun, oneByOne, loops, smallStages, busyStages].reduce(
          (sum, run) => sum + run.cpuSeconds,
          0,
        ),
      );
      runs.otherCores.push(thisRound.stop(childCpu[childCpu.length - 1]).cores);
    }
    const other = wholeRun.stop(childCpu.reduce((sum, cpu) => sum + cpu, 0));

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
