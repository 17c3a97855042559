// The delivery bench's Markdown: the targets table, the machine and its load, and the breakdowns
// of where delivery time goes.
import type { HookApi } from './deliver-hooks.js';
import type { LatencyRun } from './deliver-latency.js';
import {
  bestMedian,
  bestMedianPercent,
  fmt,
  machineLine,
  markdownTable,
  median,
  met,
  percentile,
} from './deliver-report.js';
import type { DrainRun, LoopRun } from './deliver-throughput.js';

/** Every throughput run, by kind, one entry a round. */
export type ThroughputRounds = {
  http: LoopRun[];
  bare: LoopRun[];
  sender: LoopRun[];
  full: DrainRun[];
  stubFs: DrainRun[];
  stubMemory: DrainRun[];
};

/** Deliveries to receivers that take a while to answer, at the service's default concurrency. */
export type SlowReceiverRounds = {
  answerAfterMs: number;
  concurrency: number;
  hooks: number;
  blocks: number;
  /** stackhooks draining its outbox, one entry a round. */
  drain: DrainRun[];
  /** A bare `node:http` loop with the same concurrency: the ceiling for that many in flight. */
  http: LoopRun[];
};

/** Everything the report shows. */
export type DeliveryReport = {
  /** Which API the hooks were registered through (2.0's, or 1.x's predicates). */
  api: HookApi;
  rounds: number;
  hooks: number;
  blocks: number;
  concurrency: number;
  bodyBytes: number;
  throughput: ThroughputRounds;
  slowReceiver: SlowReceiverRounds;
  stringifyMs: number;
  latency: LatencyRun;
  latencySeconds: number;
  loadBefore: string;
  loadAfter: string;
  otherCores: number | undefined;
};

const TARGET_RATE = 1_000;
const TARGET_SLOW_RECEIVER_RATE = 2_000;
const TARGET_RATIO = 0.5;
const TARGET_P50_MS = 25;
const TARGET_P99_MS = 100;

/** The report as Markdown, ready for docs/benchmarks.md. */
export function renderDeliveryReport(report: DeliveryReport): string {
  const { throughput: t, latency: l, slowReceiver: s } = report;
  const slowRates = s.drain.map((r) => r.rate);
  const rates = t.full.map((r) => r.rate);
  const ratios = t.full.map((r, i) => r.rate / t.bare[i].rate);
  const httpRatios = t.full.map((r, i) => r.rate / t.http[i].rate);
  const p50 = percentile(l.latencies, 0.5);
  const p99 = percentile(l.latencies, 0.99);
  const total = report.hooks * report.blocks;
  const roundsNote = report.rounds > 1 ? `best / median of ${report.rounds} rounds` : 'one round';

  const targets = markdownTable(
    ['measure', 'value', 'target', 'met?'],
    [
      [
        `sustained deliveries/s: ${report.hooks} hooks × ${report.blocks} payloads, embedded store, → receiver`,
        bestMedian(rates),
        `≥ ${fmt(TARGET_RATE)}`,
        met(median(rates) >= TARGET_RATE),
      ],
      [
        `bare got POST loop, requests/s (same receiver, body and headers, ${report.concurrency} in flight)`,
        bestMedian(t.bare.map((r) => r.rate)),
        '',
        '',
      ],
      [
        `bare \`node:http\` POST loop, requests/s (same receiver, body and headers, ${report.concurrency} in flight)`,
        bestMedian(t.http.map((r) => r.rate)),
        '',
        '',
      ],
      [
        'stackhooks ÷ bare got loop (paired by round)',
        bestMedianPercent(ratios),
        `≥ ${TARGET_RATIO * 100}%`,
        met(median(ratios) >= TARGET_RATIO),
      ],
      ['stackhooks ÷ bare `node:http` loop (paired by round)', bestMedianPercent(httpRatios), '', ''],
      [
        `latency p50, observer's 200 → webhook arrival (${fmt(l.hooks)} hooks, ${l.matching} matching, 5 blocks/s, ${report.latencySeconds} s)`,
        `${fmt(p50, 1)} ms`,
        `≤ ${TARGET_P50_MS} ms`,
        met(p50 <= TARGET_P50_MS),
      ],
      ['latency p99', `${fmt(p99, 1)} ms`, `≤ ${TARGET_P99_MS} ms`, met(p99 <= TARGET_P99_MS)],
      [
        `deliveries/s, receivers answering in ${s.answerAfterMs} ms: ${fmt(s.hooks)} hooks × ${s.blocks} payloads, ` +
          `embedded store, default concurrency (${s.concurrency})`,
        bestMedian(slowRates),
        `≥ ${fmt(TARGET_SLOW_RECEIVER_RATE)}`,
        met(median(slowRates) >= TARGET_SLOW_RECEIVER_RATE),
      ],
      [
        `bare \`node:http\` POST loop, receivers answering in ${s.answerAfterMs} ms, ${s.concurrency} in flight`,
        bestMedian(s.http.map((r) => r.rate)),
        '',
        '',
      ],
      ['latency max', `${fmt(Math.max(...l.latencies), 1)} ms`, '', ''],
    ],
  );

  const perDelivery = (r: LoopRun) => fmt((r.cpuSeconds / r.requests) * 1e6);
  const perRequestReceiver = (r: LoopRun) =>
    r.receiverCpuSeconds > 0 ? fmt((r.receiverCpuSeconds / r.requests) * 1e6) : '–';
  const fsyncs = (runs: DrainRun[]) => {
    const run = runs[medianIndex(runs.map((r) => r.rate))];
    return run.fsync.calls > 0
      ? `${fmt(run.fsync.calls)} (${fmt(run.fsync.calls / run.seconds)}/s, ${fmt(run.fsync.ms / run.fsync.calls, 2)} ms each)`
      : '0';
  };
  const loopRow = (name: string, runs: LoopRun[], extra: string): string[] => {
    const run = runs[medianIndex(runs.map((r) => r.rate))];
    return [name, bestMedian(runs.map((r) => r.rate)), perDelivery(run), perRequestReceiver(run), extra];
  };
  const breakdown = markdownTable(
    [
      `run (${report.concurrency} in flight, ${fmt(total)} requests)`,
      'per second',
      'bench CPU µs each',
      'receiver CPU µs each',
      'fsyncs',
    ],
    [
      loopRow('bare `node:http` loop (`http.request`, keep-alive agent)', t.http, '–'),
      loopRow('bare got loop (`got.post`, keep-alive agent)', t.bare, '–'),
      loopRow("stackhooks' sender alone (`HttpWebhookSender.send`)", t.sender, '–'),
      loopRow('stackhooks drain, → receiver (the measure above)', t.full, fsyncs(t.full)),
      loopRow('stackhooks drain, sender stub, FsOutbox', t.stubFs, fsyncs(t.stubFs)),
      loopRow('stackhooks drain, sender stub, memory outbox', t.stubMemory, fsyncs(t.stubMemory)),
    ],
  );
  const all = [...t.full, ...t.stubFs, ...t.stubMemory];
  const extra = all.reduce((sum, r) => sum + r.extra, 0);
  const errors = all.reduce((sum, r) => sum + r.errors.length, 0);
  const setup = t.full[0];

  const stage = (name: string, values: number[]) => [
    name,
    `${fmt(percentile(values, 0.5), 1)}`,
    `${fmt(percentile(values, 0.99), 1)}`,
    `${fmt(Math.max(...values), 1)}`,
  ];
  const stages = markdownTable(
    ['stage (ms)', 'p50', 'p99', 'max'],
    [
      stage("node's POST → observer's 200 (event log append + fsync), per block", l.ackMs),
      stage(
        'observer 200 → payload created (ingest: log read, normalize, archive, match, shape)',
        l.stages.ingest,
      ),
      stage('payload created → attempt started (outbox fsync, a slot, and the event loop)', l.stages.queue),
      stage('attempt started → arrival at the receiver (headers, got, loopback HTTP)', l.stages.send),
      stage("total: observer's 200 → arrival", l.latencies),
    ],
  );
  const postingSeconds = l.measuredBlocks / (l.achievedRate || 1) || report.latencySeconds;
  const cores = (seconds: number) => fmt(seconds / postingSeconds, 2);

  return [
    `Machine: ${machineLine()}.`,
    report.api === 'v1'
      ? 'Hooks: Chainhook 1.x predicates registered through the 1.x API (`--v1`), 1.x payloads.'
      : 'Hooks: registered through the 2.0 hooks API, 2.0 payloads.',
    `Load (\`/proc/loadavg\`): before \`${report.loadBefore}\`, after \`${report.loadAfter}\`; other processes ` +
      `kept ${report.otherCores === undefined ? 'n/a' : fmt(report.otherCores, 2)} cores busy on average during the run.`,
    `Throughput cells are ${roundsNote}; a target is judged on the median.`,
    '',
    targets,
    '',
    `Throughput breakdown (body ${fmt(report.bodyBytes)} bytes, the stackhooks headers; the median round's CPU and fsyncs):`,
    '',
    breakdown,
    '',
    `- JSON.stringify of the body, ${fmt(total)} times (the dispatcher does it once per attempt): ` +
      `${fmt(report.stringifyMs)} ms (${fmt((report.stringifyMs / total) * 1000, 1)} µs each).`,
    `- Not timed, before each drain: registering ${report.hooks} hooks ${fmt(setup.registerSeconds, 2)} s, ingesting ` +
      `${report.blocks} blocks (${fmt(total)} payloads queued) ${fmt(setup.ingestSeconds, 2)} s (first round).`,
    `- The delivery loop's prune at start compacts the outbox journal (a snapshot of the ${fmt(total)} queued ` +
      `payloads) inside the timed drain: ${bestMedian(
        t.full.map((r) => r.startupPruneMs),
        0,
        false,
      )} ms with got, ${bestMedian(
        t.stubFs.map((r) => r.startupPruneMs),
        0,
        false,
      )} ms with the stub (until its fsync; it blocks the event loop while it encodes).`,
    `- Requests beyond the expected at the receiver or stub (duplicates): ${extra}; error lines logged: ${errors}.`,
    '',
    `Latency breakdown (${fmt(l.found)} of ${fmt(l.expected)} measured deliveries found; ${l.posted} blocks posted, ` +
      `the first ${l.posted - l.measuredBlocks} a warm-up; achieved ${fmt(l.achievedRate, 2)} blocks/s; ` +
      `stray ${l.stray}, duplicates ${l.duplicates}; error lines ${l.errors.length}):`,
    '',
    stages,
    '',
    `- Server event-loop delay while posting: p50 ${fmt(l.loopDelay.p50, 1)} ms, p99 ${fmt(l.loopDelay.p99, 1)} ms, ` +
      `max ${fmt(l.loopDelay.max, 1)} ms.`,
    `- CPU while posting (cores on average): server ${cores(l.cpu.server)}, receiver ${cores(l.cpu.receiver)}, ` +
      `node ${cores(l.cpu.node)}. Registering the ${fmt(l.hooks)} hooks took ${fmt(l.registerSeconds, 2)} s.`,
  ].join('\n');
}

// The index of the run whose value is the (lower) median, so its other numbers can be shown.
function medianIndex(values: number[]): number {
  const order = values.map((v, i) => [v, i]).sort((a, b) => a[0] - b[0]);
  return order[Math.floor((order.length - 1) / 2)][1];
}
