// Pieces of bench/backfill.ts: the server process's RSS and CPU from /proc, a stand-in node that
// posts new blocks to the observer on a fixed schedule and times each answer, and the report.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { ChainBuilder, TEST_KEYS, addressOf, stxTransfer } from '../../test/support/block-builder.js';
import type { ReadRate } from './backfill-chain.js';
import { percentile } from './deliver-report.js';
import { fmt, markdownTable, met } from './report.js';

/** One backfill run: its final record, its own seconds (started to finished), the server's CPU and RSS samples. */
export type ScanRun = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  record: any;
  seconds: number;
  cpuSeconds: number;
  rss: number[];
};

/** Read a process's resident set (MB) and CPU seconds (user + system) from /proc. */
export function serverSampler(pid: number): { sample(): { rssMb: number; cpuSeconds: number } } {
  return {
    sample() {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
      // The command name may hold spaces: the fields are counted after its closing parenthesis.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]);
      return { rssMb: (rssKb * 1024) / 1e6, cpuSeconds: ticks / 100 };
    },
  };
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function post(url: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const ms = performance.now() - start;
        res.resume();
        res.on('end', () =>
          res.statusCode === 200 ? resolve(ms) : reject(new Error(`observer ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Whom the stand-in node's transfers pay: no archived block pays this principal. */
export const LIVE_RECIPIENT = addressOf(TEST_KEYS.carol);

/** What a stand-in node posted: each POST's time to its 200, and the heights posted. */
export type Posted = { latencies: number[]; heights: number[] };

/**
 * A stand-in node: new blocks (one STX transfer to `LIVE_RECIPIENT` each) on top of `tip`, posted
 * one at a time on a fixed schedule, each POST's time to its 200 kept, and when (performance.now())
 * the 200 of each height came.
 */
export async function observerPoster(
  url: string,
  tip: { block_height: number; index_block_hash: string },
  intervalMs: number,
): Promise<{
  answeredAt: Map<number, number>;
  postFor(count: number): Promise<Posted>;
  postUntilStopped(): { stop(): Promise<Posted> };
}> {
  const chain = new ChainBuilder({
    label: `bench backfill live ${randomBytes(4).toString('hex')}`,
    startHeight: tip.block_height + 1,
  });
  const transfer = await stxTransfer({ recipient: LIVE_RECIPIENT, amount: 1n });
  const answeredAt = new Map<number, number>();
  let first = true;
  const nextBlock = () => {
    const block = chain.next({ transactions: [transfer] });
    if (first) block.parent_index_block_hash = tip.index_block_hash;
    first = false;
    return { height: block.block_height, body: JSON.stringify(block) };
  };
  const run = async (more: (posted: number) => boolean): Promise<Posted> => {
    const posted: Posted = { latencies: [], heights: [] };
    const start = performance.now();
    for (let i = 0; more(i); i++) {
      // A fixed schedule, so a slow answer does not lower the rate.
      const wait = start + i * intervalMs - performance.now();
      if (wait > 0) await sleep(wait);
      const { height, body } = nextBlock();
      posted.latencies.push(await post(url, body));
      answeredAt.set(height, performance.now());
      posted.heights.push(height);
    }
    return posted;
  };
  return {
    answeredAt,
    postFor: (count) => run((posted) => posted < count),
    postUntilStopped() {
      let stopped = false;
      const running = run(() => !stopped);
      return {
        stop() {
          stopped = true;
          return running;
        },
      };
    },
  };
}

/** The live hook's delivery times of some posted heights: the observer's 200 → the webhook's arrival (ms). */
export type LiveLatency = { times: number[]; missing: number };

/** The delivery time of each height that arrived, and how many of `heights` never did. */
export function liveLatencies(
  heights: number[],
  answeredAt: Map<number, number>,
  arrivedAt: Map<number, number>,
): LiveLatency {
  const times: number[] = [];
  for (const height of heights) {
    const answered = answeredAt.get(height);
    const arrived = arrivedAt.get(height);
    if (answered !== undefined && arrived !== undefined) times.push(arrived - answered);
  }
  return { times, missing: heights.length - times.length };
}

/** Everything the report shows. */
export type BackfillReport = {
  machine: string;
  loadBefore: string;
  loadAfter: string;
  blocks: number;
  every: number;
  dense: number;
  alone?: ScanRun;
  withPosts?: ScanRun;
  denseRun?: ScanRun;
  baseline: number[];
  duringScan: number[];
  received: { backfill: number; live: number };
  reads?: { count: number; byHeight: ReadRate; byRange: ReadRate };
  /** The status route's times (no write in it), with no scan and during the scan with posts. */
  statusBaseline: number[];
  statusDuring: number[];
  /** The live hook's deliveries of the blocks posted with no scan, and during the scan. */
  liveBaseline?: LiveLatency;
  liveDuring?: LiveLatency;
  store: 'embedded' | 'postgres';
};

const rate = (run: ScanRun) => run.record.blocks_scanned / run.seconds;
const rssLine = (run: ScanRun) =>
  `${fmt(run.rss[0])} → ${fmt(Math.max(...run.rss))} max → ${fmt(run.rss.at(-1)!)} MB`;
const latency = (values: number[]) =>
  `p50 ${fmt(percentile(values, 0.5), 1)} / p99 ${fmt(percentile(values, 0.99), 1)} / max ${fmt(Math.max(...values), 1)} ms (${values.length} posts)`;

const matchedLine = (name: string, run?: ScanRun) =>
  run ? [`${name} ${run.record.blocks_matched} matched / ${run.record.payloads_delivered} delivered`] : [];

/** The Markdown for docs/benchmarks.md; rows of measurements not taken are left out. */
export function renderBackfillReport(r: BackfillReport): string {
  const { alone, withPosts, denseRun } = r;
  const selective = `selective scan, 1 block in ${fmt(r.every)} matches, ${fmt(r.blocks)} blocks`;
  const perCpu = (run: ScanRun) => fmt(run.record.blocks_scanned / run.cpuSeconds);
  const rows: string[][] = [];
  if (r.reads) {
    const { count, byHeight, byRange } = r.reads;
    const cell = (read: ReadRate) =>
      `${fmt(read.perSecond)} blocks/s (${fmt(read.perCpuSecond)} per CPU-second)`;
    rows.push([
      `archive read and matched, one height at a time, ${fmt(count)} blocks`,
      cell(byHeight),
      '',
      '',
    ]);
    rows.push([
      'same, as ranges of 32 heights',
      `${cell(byRange)}; ×${fmt(byRange.perCpuSecond / byHeight.perCpuSecond, 2)} per CPU-second`,
      '',
      '',
    ]);
  }
  if (alone) {
    rows.push([
      selective,
      `${fmt(rate(alone))} blocks/s (${fmt(alone.seconds, 1)} s; ${perCpu(alone)} blocks per server CPU-second)`,
      '≥ 20,000 blocks/s',
      met(rate(alone) >= 20_000),
    ]);
  }
  if (withPosts) {
    rows.push([
      `${alone ? 'same' : selective}, while the observer takes a block every 200 ms`,
      `${fmt(rate(withPosts))} blocks/s (${perCpu(withPosts)} per server CPU-second)`,
      '',
      '',
    ]);
  }
  if (denseRun) {
    const perPayloadMs = (denseRun.cpuSeconds / denseRun.record.payloads_delivered) * 1000;
    rows.push([
      `hook matching every block, ${fmt(r.dense)} blocks`,
      `${fmt(denseRun.record.payloads_delivered / denseRun.seconds)} payloads/s delivered (${fmt(denseRun.seconds, 1)} s; server ${fmt(perPayloadMs, 2)} CPU-ms a payload)`,
      'delivery-limited',
      '',
    ]);
  }
  if (alone) rows.push(['server RSS over the selective scan', rssLine(alone), 'flat', '']);
  if (denseRun) rows.push(['server RSS over the dense scan', rssLine(denseRun), 'flat', '']);
  if (withPosts) {
    const p99 = percentile(r.duringScan, 0.99);
    rows.push(['observer POST, no scan', latency(r.baseline), '', '']);
    rows.push([
      'observer POST during the selective scan',
      latency(r.duringScan),
      'p99 ≤ 20 ms',
      met(p99 <= 20),
    ]);
    const requests = (values: number[]) => latency(values).replace('posts', 'requests');
    rows.push(['status route (writes nothing), no scan', requests(r.statusBaseline), '', '']);
    rows.push(['status route during the selective scan', requests(r.statusDuring), '', '']);
  }
  const live = (name: string, run?: LiveLatency) => {
    if (!run || run.times.length === 0) return;
    const lost = run.missing > 0 ? `; ${run.missing} never arrived` : '';
    rows.push([
      `live delivery ${name}: observer's 200 → webhook arrival`,
      latency(run.times).replace('posts', 'blocks') + lost,
      'p50 ≤ 25 / p99 ≤ 100 ms',
      met(percentile(run.times, 0.5) <= 25 && percentile(run.times, 0.99) <= 100 && run.missing === 0),
    ]);
  };
  live('with no scan', r.liveBaseline);
  live('during the selective scan', r.liveDuring);
  const matched = [
    ...matchedLine('selective', alone),
    ...matchedLine('selective with posts', withPosts),
    ...matchedLine('dense', denseRun),
  ];
  return [
    `Machine: ${r.machine}. Store: ${r.store}. Load before ${r.loadBefore}, after ${r.loadAfter}.`,
    '',
    markdownTable(['measure', 'result', 'target', 'met?'], rows),
    '',
    matched.length > 0
      ? `${matched.join('; ')}; the receiver got ${r.received.backfill} backfill payloads.`
      : '',
  ].join('\n');
}
