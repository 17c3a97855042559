// The hooks bench's Markdown: registrations and memory per level, the targets, and block intake
// while hooks are written.
import { cpus } from 'node:os';
import type { MemoryReading, ServerPlace } from './hooks-server.js';
import { fmt, markdownTable, met } from './report.js';

/** One level of hooks: how registrations and pages went, and the memory at its end. */
export type Level = {
  hooks: number;
  rate: number;
  p50: number;
  p99: number;
  /** Median ms of a page at the first, middle and last offset. */
  pages: number[];
  memory: MemoryReading;
};
/** Blocks posted while hooks are written, at the last level. */
export type Intake = {
  firstMs: number;
  posts: number;
  p50: number;
  p99: number;
  max: number;
  writesP99: number;
  loopMaxMs: number;
  /** After the intake, the matcher's index loaded (the peak: since the last level's reading). */
  memory: MemoryReading;
};
/** One store's run. */
export type StoreRun = {
  store: string;
  /** In the bench's process: before the server started; in its own: the server started, no hook. */
  start: MemoryReading;
  levels: Level[];
  intake: Intake;
  stopMs: number;
  errors: number;
};

const MiB = 1024 * 1024;
/** The target's limit, 400 MB, in bytes (381.5 MiB). */
const RSS_LIMIT = 400e6;

const mib = (bytes: number | undefined) => (bytes === undefined ? '—' : fmt(bytes / MiB));

/** A memory reading for the progress lines. */
export function memoryText({ rss, peak, heapUsed, external }: MemoryReading): string {
  return (
    `RSS ${mib(rss)} MiB` +
    (peak === undefined ? '' : ` (peak ${mib(peak)})`) +
    `, heap used ${mib(heapUsed)}, external ${mib(external)} MiB`
  );
}

/** Print the run's tables, with the machine, where the server ran and the load before and after. */
export function printHooksReport(
  runs: StoreRun[],
  options: {
    place: ServerPlace;
    levels: number[];
    inFlight: number;
    loadBefore: number[];
    loadAfter: number[];
  },
): void {
  const { place, levels, inFlight, loadBefore, loadAfter } = options;
  const last = levels.at(-1)!;
  const own = place !== 'in-process';
  console.log(
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}; server: ${place}; load average`,
  );
  console.log(
    `${loadBefore.map((l) => l.toFixed(2)).join(' ')} before, ${loadAfter.map((l) => l.toFixed(2)).join(' ')} after.\n`,
  );
  console.log(
    markdownTable(
      [
        'store',
        'hooks',
        `registrations/s (${inFlight} in flight)`,
        'single p50 ms',
        'single p99 ms',
        'GET /me p50 ms (first / middle / last page)',
        own ? 'server RSS MiB (at start)' : 'RSS MiB, bench and server (before the server started)',
        'RSS peak MiB (during the level)',
        'heap used / external MiB',
      ],
      runs.flatMap((run) =>
        run.levels.map((level) => [
          run.store,
          fmt(level.hooks),
          fmt(level.rate),
          fmt(level.p50, 1),
          fmt(level.p99, 1),
          level.pages.map((ms) => fmt(ms, 1)).join(' / '),
          `${mib(level.memory.rss)} (${mib(run.start.rss)})`,
          mib(level.memory.peak),
          `${mib(level.memory.heapUsed)} / ${mib(level.memory.external)}`,
        ]),
      ),
    ),
  );
  console.log();
  console.log(
    markdownTable(
      [
        'store',
        `p99 at ${fmt(last)} ≤ 10 ms`,
        `p50 ${fmt(last)} ÷ ${fmt(levels[0])} ≤ 2`,
        `RSS at ${fmt(last)}, after registering and after intake, ≤ 400 MB = ${fmt(RSS_LIMIT / MiB, 1)} MiB (embedded)`,
      ],
      runs.map((run) => {
        const [first, top] = [run.levels[0], run.levels.at(-1)!];
        const ratio = top.p50 / first.p50;
        const rss = Math.max(top.memory.rss, run.intake.memory.rss);
        return [
          run.store,
          `${fmt(top.p99, 1)} ${met(top.p99 <= 10)}`,
          `${fmt(ratio, 2)} ${met(ratio <= 2)}`,
          run.store === 'lowdb'
            ? `${mib(top.memory.rss)} / ${mib(run.intake.memory.rss)} MiB ${met(rss <= RSS_LIMIT)}`
            : '—',
        ];
      }),
    ),
  );
  console.log();
  console.log(
    markdownTable(
      [
        'store',
        'first block ms',
        'blocks posted (5/s)',
        'observer POST p50 ms',
        'observer POST p99 ms (≤ 20)',
        'max ms',
        'registration p99 ms meanwhile',
        'longest event-loop delay ms',
        'RSS MiB after (peak since the last level)',
        'heap used / external MiB after',
        'stop ms',
        'error lines',
      ],
      runs.map((run) => [
        run.store,
        fmt(run.intake.firstMs),
        fmt(run.intake.posts),
        fmt(run.intake.p50, 1),
        `${fmt(run.intake.p99, 1)} ${met(run.intake.p99 <= 20)}`,
        fmt(run.intake.max, 1),
        fmt(run.intake.writesP99, 1),
        fmt(run.intake.loopMaxMs, 1),
        `${mib(run.intake.memory.rss)} (${mib(run.intake.memory.peak)})`,
        `${mib(run.intake.memory.heapUsed)} / ${mib(run.intake.memory.external)}`,
        fmt(run.stopMs),
        fmt(run.errors),
      ]),
    ),
  );
}
