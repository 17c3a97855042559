// The slow-receivers bench's runs: the real server (startServer, embedded stores, default delivery
// settings) in this process, the receivers and a stand-in stacks-node in their own processes. An
// isolation run times what healthy hooks receive while bad ones sit beside them; a memory run
// samples the process while slow hooks fall ever further behind.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunningServer } from '../../apps/server/start-server.js';
import type { DeliveryCounters } from '../../core/delivery/delivery-counters.js';
import { startBenchServer } from './bench-server.js';
import type { StandInNode } from './deliver-children.js';
import { matchingDefinition } from './deliver-hooks.js';
import { monotonicMs, startBenchChild } from './deliver-ipc.js';
import type { Arrival } from './deliver-receiver.js';
import { OWNER } from './deliver-throughput.js';
import type { BadMode, BadStats, IsolationReceiversReady } from './isolation-receivers.js';

const script = fileURLToPath(new URL('./isolation-receivers.ts', import.meta.url));

/** The receivers' process: a healthy origin, and bad origins opened on demand. */
export type IsolationReceivers = {
  healthyOrigin: string;
  /** Close the bad origins there are and open `count` new ones answering as `mode`; their origins. */
  openBad(count: number, mode: BadMode): Promise<string[]>;
  closeBad(): Promise<void>;
  reset(): Promise<void>;
  records(): Promise<Arrival[]>;
  badStats(): Promise<BadStats>;
  stop(): Promise<void>;
};

/** Start the receivers' process. */
export async function startIsolationReceivers(cwd: string): Promise<IsolationReceivers> {
  const child = await startBenchChild<IsolationReceiversReady>(script, cwd);
  const origin = (port: number) => `http://127.0.0.1:${port}`;
  return {
    healthyOrigin: origin(child.ready.healthyPort),
    openBad: async (count, mode) => (await child.request<number[]>({ kind: 'bad', count, mode })).map(origin),
    closeBad: () => child.request({ kind: 'closeBad' }),
    reset: () => child.request({ kind: 'reset' }),
    records: () => child.request({ kind: 'records' }),
    badStats: () => child.request({ kind: 'badStats' }),
    stop: () => child.stop(),
  };
}

/** What one isolation run measured for the healthy hooks. */
export type IsolationRun = {
  label: string;
  healthy: number;
  bad: number;
  blocks: number;
  /** Healthy (block, hook) deliveries expected, found, and found more than once. */
  expected: number;
  found: number;
  duplicates: number;
  /** Observer's 200 → arrival at the receiver, ms, one per healthy (block, hook). */
  latencies: number[];
  /** Seconds from the first block's 200 to the 200 of the block whose delivery took longest. */
  worstAtSeconds: number;
  /** The longest wait between two deliveries to one healthy hook, ms, over all of them. */
  maxGapMs: number;
  /** Healthy deliveries a second, from the first block's 200 to the last arrival. */
  throughput: number;
  /** Blocks a second the node achieved, and posts not answered 200. */
  achievedRate: number;
  refusedPosts: number;
  counters: DeliveryCounters;
  badStats: BadStats;
  peakRssMiB: number;
};

/** Where a run's server keeps its data, and the environment it is started with beyond the defaults. */
type ServerPlace = { dataDir: string; env?: Record<string, string> };

/** Register one enabled hook matching every bench block for each URL; returns uuid → URL path. */
async function registerHooks(server: RunningServer, urls: string[]): Promise<Map<string, string>> {
  const paths = new Map<string, string>();
  for (const [i, url] of urls.entries()) {
    const record = await server.stackhooks.registry.register(OWNER, matchingDefinition(`hook ${i}`, url));
    paths.set(record.uuid, new URL(url).pathname);
  }
  return paths;
}

/**
 * `healthy` hooks on the healthy origin and `bad` ones each on its own bad origin answering as
 * `mode`; the node posts every block of `blockFile` (`blocks` of them) every `intervalMs`; then up
 * to `drainMs` for the healthy hooks to receive the rest.
 */
export async function runIsolation(options: {
  label: string;
  receivers: IsolationReceivers;
  node: StandInNode;
  place: ServerPlace;
  healthy: number;
  bad: number;
  mode: BadMode;
  blockFile: string;
  blocks: number;
  intervalMs: number;
  drainMs: number;
  errors: string[];
}): Promise<IsolationRun> {
  const { receivers, node, healthy, bad, blocks, errors } = options;
  const badOrigins = bad > 0 ? await receivers.openBad(bad, options.mode) : [];
  const server = await startBenchServer({ ...options.place, errors });
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 500);
  try {
    const healthyUrls = Array.from({ length: healthy }, (_, i) => `${receivers.healthyOrigin}/ok/${i}`);
    await registerHooks(server, [...healthyUrls, ...badOrigins.map((o, i) => `${o}/bad/${i}`)]);
    await receivers.reset();
    const observer = `http://127.0.0.1:${server.observerPort}/new_block`;
    const acks = await node.post(observer, options.blockFile, options.intervalMs);
    const expected = blocks * healthy;
    const deadline = monotonicMs() + options.drainMs;
    let arrivals = await receivers.records();
    while (arrivals.length < expected && monotonicMs() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      arrivals = await receivers.records();
    }
    const counters = structuredClone(server.stackhooks.dispatcher.counters);
    const badStats = await receivers.badStats();

    const ackAt = new Map(acks.map((a) => [a.height, a.ackAt]));
    const seen = new Set<string>();
    const latencies: number[] = [];
    let worst = { latency: -1, acked: NaN };
    const byHook = new Map<string, number[]>();
    let duplicates = 0;
    for (const arrival of arrivals) {
      const key = `${arrival.path}|${arrival.height}`;
      if (seen.has(key)) {
        duplicates++;
        continue;
      }
      seen.add(key);
      const acked = ackAt.get(arrival.height);
      if (acked !== undefined) {
        latencies.push(arrival.at - acked);
        if (arrival.at - acked > worst.latency) worst = { latency: arrival.at - acked, acked };
      }
      const times = byHook.get(arrival.path) ?? [];
      times.push(arrival.at);
      byHook.set(arrival.path, times);
    }
    let maxGapMs = 0;
    for (const times of byHook.values()) {
      for (let i = 1; i < times.length; i++) maxGapMs = Math.max(maxGapMs, times[i] - times[i - 1]);
    }
    const firstAck = acks[0]?.ackAt ?? NaN;
    const lastArrival = Math.max(...arrivals.map((a) => a.at));
    const sent = acks.map((a) => a.sentAt);
    return {
      label: options.label,
      healthy,
      bad,
      blocks,
      expected,
      found: seen.size,
      duplicates,
      latencies,
      worstAtSeconds: (worst.acked - firstAck) / 1000,
      maxGapMs,
      throughput: seen.size / ((lastArrival - firstAck) / 1000),
      achievedRate: (sent.length - 1) / ((sent.at(-1)! - sent[0]) / 1000),
      refusedPosts: acks.filter((a) => a.status !== 200).length,
      counters,
      badStats,
      peakRssMiB: peakRss / 2 ** 20,
    };
  } finally {
    clearInterval(sampler);
    // The bad origins first: cutting them ends the attempts that hang, so the server stops at once.
    await receivers.closeBad();
    await server.stop('bench run done');
  }
}

/** One sample of the memory run. */
export type MemorySample = {
  seconds: number;
  rssMiB: number;
  heapMiB: number;
  /** Payloads queued for the slow hooks and not yet answered (one per hook per block). */
  pending: number;
  /** Bytes of the outbox folder on disk, MiB. */
  outboxMiB: number;
};

/**
 * `hooks` hooks, each on its own origin answering 200 after `delayMs`, while the node posts a
 * block every `intervalMs` from `blockFile`: a sample every `sampleSeconds` while it posts.
 */
export async function runMemory(options: {
  receivers: IsolationReceivers;
  node: StandInNode;
  place: ServerPlace;
  hooks: number;
  delayMs: number;
  blockFile: string;
  intervalMs: number;
  sampleSeconds: number;
  errors: string[];
}): Promise<MemorySample[]> {
  const { receivers, hooks } = options;
  const origins = await receivers.openBad(hooks, { kind: 'late', delayMs: options.delayMs });
  const server = await startBenchServer({ ...options.place, errors: options.errors });
  const samples: MemorySample[] = [];
  try {
    await registerHooks(
      server,
      origins.map((o, i) => `${o}/slow/${i}`),
    );
    await receivers.reset();
    const start = monotonicMs();
    const outbox = join(options.place.dataDir, 'outbox');
    const sample = async () => {
      const { rss, heapUsed } = process.memoryUsage();
      const acked = await server.stackhooks.eventLog.position();
      const { answered } = await receivers.badStats();
      samples.push({
        seconds: Math.round((monotonicMs() - start) / 1000),
        rssMiB: rss / 2 ** 20,
        heapMiB: heapUsed / 2 ** 20,
        pending: Math.max(0, acked.processed * hooks - answered),
        outboxMiB: (await folderBytes(outbox)) / 2 ** 20,
      });
    };
    let sampling = Promise.resolve();
    const timer = setInterval(() => {
      sampling = sampling.then(sample);
    }, options.sampleSeconds * 1000);
    const observer = `http://127.0.0.1:${server.observerPort}/new_block`;
    await options.node.post(observer, options.blockFile, options.intervalMs);
    clearInterval(timer);
    await sampling;
    await sample();
    return samples;
  } finally {
    await receivers.closeBad();
    await server.stop('bench run done');
  }
}

async function folderBytes(folder: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}
