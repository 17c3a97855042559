// The Markdown that bench/ingest prints for docs/benchmarks.md: the machine and its load, the
// scenarios against the targets, and where the time of each import goes.
import type { StageTimes } from './import-stages.js';
import { megabytes, summarize } from './measure.js';
import { bestMedian, bestMedianPercent, fmt, markdownTable, met } from './report.js';

/** The targets (issue 3). */
export const INGEST_TARGETS = { smallBlocksPerS: 1000, busyBlocksPerS: 100, rssMB: 300, ofBareDecode: 0.4 };

/** What a child process reports: one import (or none, for the baseline), timed around `runImport`. */
export type ImportRun = {
  blocks: number;
  archived: number;
  seconds: number;
  maxRssKb: number;
  cpuSeconds: number;
  /** The import's own clock (`ImportSummary.seconds`): stores already open, closing not counted. */
  ownSeconds: number;
};

/** A timed in-process loop: items a second, and how long it ran. */
export type Rate = { rate: number; seconds: number };

/** Every measurement of every round. */
export type IngestRuns = {
  baseline: ImportRun[];
  empty: ImportRun[];
  small: ImportRun[];
  busy: ImportRun[];
  /** The busy file through `ingestNodeBlock` one block at a time, for comparison. */
  busyOneByOne: ImportRun[];
  decode: Rate[];
  normalize: Rate[];
  /** normalizeBlock with one address memo across the repeats, as the import keeps one across blocks. */
  normalizeWithMemo: Rate[];
  smallStages: StageTimes[];
  busyStages: StageTimes[];
  /** Cores other processes kept busy during each round, on average (undefined: not measurable here). */
  otherCores: (number | undefined)[];
};

/** What the report needs besides the runs. */
export type IngestReport = {
  machine: string;
  /** The commit measured. */
  code: string;
  loadBefore: string;
  loadAfter: string;
  wallSeconds: number;
  /** Cores other processes kept busy during the whole run, on average, when the platform tells. */
  otherCores: number | undefined;
  rounds: number;
  seconds: number;
  small: { file: string; posts: number; distinct: number; txs: number };
  busy: { copies: number; txsPerBlock: number; events: number };
  runs: IngestRuns;
};

const med = (values: number[]) => summarize(values).median;
const highestMB = (runs: ImportRun[]) => megabytes(Math.max(...runs.map((run) => run.maxRssKb)));
/** Peak RSS is shown (and judged) as the highest of the rounds: memory has no lucky round. */
const rssCell = (runs: ImportRun[]) => fmt(highestMB(runs));

/** The whole report, Markdown. */
export function renderIngestReport(report: IngestReport): string {
  const { small, busy, runs } = report;
  const T = INGEST_TARGETS;
  const smallSeconds = runs.small.map((run) => run.seconds);
  const busySeconds = runs.busy.map((run) => run.seconds);
  const busyTxs = busy.copies * busy.txsPerBlock;
  const ratios = runs.busy.map((run, i) => busyTxs / run.seconds / runs.decode[i].rate);
  const perS = (count: number, secs: number[]) => secs.map((s) => count / s);
  const rssOk = (r: ImportRun[]) => `RSS ${met(highestMB(r) < T.rssMB)}`;
  const rows = [
    [
      `import ${small.file}, per \`/new_block\` post`,
      fmt(small.posts),
      bestMedian(smallSeconds, 3, false),
      bestMedian(perS(small.posts, smallSeconds)),
      bestMedian(perS(small.txs, smallSeconds)),
      rssCell(runs.small),
      `≥ ${fmt(T.smallBlocksPerS)} blocks/s, < ${T.rssMB} MB`,
      `${met(med(perS(small.posts, smallSeconds)) >= T.smallBlocksPerS)}, ${rssOk(runs.small)}`,
    ],
    [
      `same import, per distinct block archived`,
      fmt(small.distinct),
      bestMedian(smallSeconds, 3, false),
      bestMedian(perS(small.distinct, smallSeconds)),
      '',
      '',
      `≥ ${fmt(T.smallBlocksPerS)} blocks/s`,
      met(med(perS(small.distinct, smallSeconds)) >= T.smallBlocksPerS),
    ],
    ownClockRow(`same import by runImport's own clock, per post`, small.posts, small.txs, runs.small),
    [
      `import busy block × ${busy.copies} (${busy.txsPerBlock} txs each)`,
      fmt(busy.copies),
      bestMedian(busySeconds, 3, false),
      bestMedian(perS(busy.copies, busySeconds), 1),
      bestMedian(perS(busyTxs, busySeconds)),
      rssCell(runs.busy),
      `≥ ${T.busyBlocksPerS} blocks/s, < ${T.rssMB} MB`,
      `${met(med(perS(busy.copies, busySeconds)) >= T.busyBlocksPerS)}, ${rssOk(runs.busy)}`,
    ],
    ownClockRow(`same import by runImport's own clock`, busy.copies, busyTxs, runs.busy),
    [
      'same busy file through `ingestNodeBlock` block by block, without runImport',
      fmt(busy.copies),
      bestMedian(
        runs.busyOneByOne.map((run) => run.seconds),
        3,
        false,
      ),
      bestMedian(
        runs.busyOneByOne.map((run) => busy.copies / run.seconds),
        1,
      ),
      bestMedian(runs.busyOneByOne.map((run) => busyTxs / run.seconds)),
      rssCell(runs.busyOneByOne),
      'comparison',
      '',
    ],
    [
      'busy import txs/s ÷ bare decode txs/s (same round)',
      '',
      '',
      '',
      bestMedianPercent(ratios),
      '',
      `≥ ${T.ofBareDecode * 100}%`,
      met(med(ratios) >= T.ofBareDecode),
    ],
    rateRow(
      `bare \`deserializeTransaction\` (hex) of the ${busy.txsPerBlock} txs`,
      runs.decode,
      busy.txsPerBlock,
    ),
    rateRow('`normalizeBlock` of the busy block', runs.normalize, busy.txsPerBlock),
    rateRow(
      '`normalizeBlock` of the busy block, c32 address memo kept across repeats (as the import keeps it across blocks)',
      runs.normalizeWithMemo,
      busy.txsPerBlock,
    ),
    [
      'import of an empty file (fixed cost: lock, open and close the archive and contract store)',
      '0',
      bestMedian(
        runs.empty.map((run) => run.seconds),
        3,
        false,
      ),
      '',
      '',
      rssCell(runs.empty),
      '',
      '',
    ],
    [
      'process baseline (node + tsx + modules loaded, no import)',
      '',
      '',
      '',
      '',
      rssCell(runs.baseline),
      '',
      '',
    ],
  ];
  const percentOfCore = (cores: number | undefined) =>
    cores === undefined ? 'not measured' : `${fmt(cores * 100)}%`;
  const other =
    `${percentOfCore(report.otherCores)} of one core over ${fmt(report.wallSeconds, 1)} s ` +
    `(rounds: ${runs.otherCores.map(percentOfCore).join(', ')})`;
  return [
    `Machine: ${report.machine}`,
    `Code: ${report.code}`,
    `Load average (1/5/15 min): before ${report.loadBefore}; after ${report.loadAfter}`,
    `CPU other processes used during the run (approx.): ${other}`,
    `${report.rounds} round(s), interleaved, every measurement in a fresh child process; cells show ` +
      `best / median, peak RSS the highest round. Targets are judged on the median (RSS on the highest); ` +
      `the decode and normalize loops ran ≥ ${report.seconds} s each.`,
    `${small.file}: ${small.posts} \`/new_block\` posts, ${small.distinct} distinct blocks, ${small.txs} txs ` +
      `in the posts. Busy: ${busy.copies} chained copies × ${busy.txsPerBlock} txs, ${busy.events} events each.`,
    '',
    markdownTable(
      ['scenario', 'blocks', 'seconds', 'blocks/s', 'txs/s', 'peak RSS MB', 'target', 'met?'],
      rows,
    ),
    '',
    `Where the busy import's time goes (median of the rounds):`,
    '',
    breakdown(runs.busyStages, busySeconds, runs.empty, busy.copies, {
      label: 'bare `deserializeTransaction` of the same txs (reference, not a stage)',
      seconds: busyTxs / med(runs.decode.map((x) => x.rate)),
    }),
    '',
    `Where the ${small.file} import's time goes (median of the rounds; blocks = posts):`,
    '',
    breakdown(runs.smallStages, smallSeconds, runs.empty, small.posts),
    ...countWarnings(runs.small, small.posts, small.distinct, 'stackerdb'),
    ...countWarnings(runs.busy, busy.copies, busy.copies, 'busy'),
    ...countWarnings(runs.busyOneByOne, busy.copies, busy.copies, 'busy one-by-one'),
  ].join('\n');
}

/**
 * An import's rate by its own clock (`ImportSummary.seconds`, what `stackhooks import` reports): the
 * stores already open and closing not counted. For information; the targets are judged on the wall time.
 */
function ownClockRow(name: string, blocks: number, txs: number, runs: ImportRun[]): string[] {
  const own = runs.map((run) => Math.max(run.ownSeconds, 0.001));
  return [
    name,
    fmt(blocks),
    bestMedian(own, 3, false),
    bestMedian(
      own.map((s) => blocks / s),
      blocks < 500 ? 1 : 0,
    ),
    bestMedian(own.map((s) => txs / s)),
    '',
    'information',
    '',
  ];
}

/** A row for an in-process loop: busy-block equivalents a second and transactions a second. */
function rateRow(name: string, runs: Rate[], txsPerBlock: number): string[] {
  const seconds = runs.map((x) => x.seconds);
  return [
    name,
    '',
    bestMedian(seconds, 2, false),
    bestMedian(
      runs.map((x) => x.rate / txsPerBlock),
      1,
    ),
    bestMedian(runs.map((x) => x.rate)),
    '',
    'reference',
    '',
  ];
}

/** The stages of one import against its measured time: ms for the file, ms a block, share. */
function breakdown(
  stages: StageTimes[],
  importSeconds: number[],
  empty: ImportRun[],
  blocks: number,
  reference?: { label: string; seconds: number },
): string {
  const total = med(importSeconds);
  const parts: [string, number][] = [
    ['fixed cost (the empty-file import)', med(empty.map((run) => run.seconds))],
    ['read the TSV (stream, gunzip, split lines)', med(stages.map((s) => s.read))],
    ['`JSON.parse` of the `/new_block` bodies', med(stages.map((s) => s.parse))],
    [
      '`normalizeBlock` (its own decoding included; address memo across blocks, as the import)',
      med(stages.map((s) => s.normalize)),
    ],
    ['archive `put` (stringify, log append, index, chain; final checkpoint)', med(stages.map((s) => s.put))],
  ];
  const rest = total - parts.reduce((sum, [, s]) => sum + s, 0);
  const row = (label: string, s: number) => [
    label,
    fmt(s * 1000, 1),
    fmt((s * 1000) / blocks, 2),
    `${fmt((s / total) * 100)}%`,
  ];
  const rows = parts.map(([label, s]) => row(label, s));
  if (reference) rows.push(row(`(${reference.label})`, reference.seconds));
  rows.push(row('rest (ABI lookups, contract store, progress checkpoints, cold JIT, GC)', rest));
  rows.push(row('**the import, measured**', total));
  return markdownTable(['stage', 'ms', 'ms / block', 'of the import'], rows);
}

/** Lines that say an import did not read or archive what the file holds: its rate would mislead. */
function countWarnings(runs: ImportRun[], posts: number, distinct: number, name: string): string[] {
  return runs
    .filter((run) => run.blocks !== posts || run.archived !== distinct)
    .map(
      (run) =>
        `\nWARNING: the ${name} import read ${run.blocks} posts and archived ${run.archived} blocks; ` +
        `expected ${posts} and ${distinct}`,
    );
}
