// The latency half of the delivery bench: the real server (startServer, embedded stores) with
// 1,000 hooks registered, a handful matching; the stand-in node posts blocks to the observer at a
// steady rate, and each matching webhook's arrival at the receiver is timed from the 200 the node
// got for its block. The delivery log splits each delivery into stages.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { DeliveryRecord } from '../../core/delivery/delivery-record.js';
import { DELIVERY_QUEUE, type DeliveryQueue } from '../../core/ports/delivery-queue.js';
import { startBenchServer } from './bench-server.js';
import type { Receiver, StandInNode } from './deliver-children.js';
import { registerMatching, registerNonMatching, transferBlocks, type HookApi } from './deliver-hooks.js';
import { monotonicMs } from './deliver-ipc.js';
import { median, ownCpuSeconds } from './deliver-report.js';
import { OWNER } from './deliver-throughput.js';

/** Milliseconds of each stage of the measured deliveries, one value per (block, hook). */
export type LatencyStages = {
  /** Node's 200 → payload created (ingest: read the log, normalize, archive, match, shape). */
  ingest: number[];
  /** Payload created → attempt started (outbox fsync, then a free slot and a pump round). */
  queue: number[];
  /** Attempt started → arrived at the receiver (headers, got, loopback HTTP). */
  send: number[];
};

/** What the latency run measured. */
export type LatencyRun = {
  hooks: number;
  matching: number;
  /** Blocks posted, warm-up included, and those measured. */
  posted: number;
  measuredBlocks: number;
  /** Blocks a second the node achieved over the measured blocks. */
  achievedRate: number;
  /** Measured (block, hook) deliveries expected and found. */
  expected: number;
  found: number;
  /** Deliveries to hooks that should never match, or repeated ones. */
  stray: number;
  duplicates: number;
  /** Observer's 200 → webhook arrival, ms, one per measured (block, hook). */
  latencies: number[];
  /** POST → 200 at the node, ms, per measured block. */
  ackMs: number[];
  stages: LatencyStages;
  /** The server process's event-loop delay during the posting, ms. */
  loopDelay: { p50: number; p99: number; max: number };
  registerSeconds: number;
  /** CPU seconds of the bench (server) process, the receiver and the node during the posting. */
  cpu: { server: number; receiver: number; node: number };
  errors: string[];
};

/** Run the latency scenario: `seconds` of blocks at `rate` a second after `warmup` blocks. */
export async function measureLatency(options: {
  receiver: Receiver;
  node: StandInNode;
  seconds: number;
  rate: number;
  hooks: number;
  matching: number;
  warmup: number;
  /** Which API the hooks are registered through (2.0's, or 1.x's predicates). */
  api: HookApi;
}): Promise<LatencyRun> {
  const { receiver, node, seconds, rate, hooks, matching, warmup, api } = options;
  const measuredBlocks = Math.round(seconds * rate);
  const blocks = await transferBlocks(warmup + measuredBlocks);
  const work = await mkdtemp(join(tmpdir(), 'stackhooks-bench-latency-'));
  const blockFile = join(work, 'blocks.ndjson');
  await writeFile(blockFile, blocks.map((b) => JSON.stringify(b)).join('\n') + '\n');
  const errors: string[] = [];
  const server = await startBenchServer({
    dataDir: join(work, 'data'),
    env: { STACKHOOKS_MAX_HOOKS_PER_OWNER: String(hooks) },
    errors,
    printed: 20,
  });
  try {
    // Matching hooks spread through the registration order, the rest never match.
    const every = Math.max(1, Math.floor(hooks / matching));
    const matchingUuids = new Map<string, number>();
    const start = performance.now();
    for (let batch = 0; batch < hooks; batch += 100) {
      await Promise.all(
        Array.from({ length: Math.min(100, hooks - batch) }, async (_, k) => {
          const i = batch + k;
          const isMatching = i % every === 0 && i / every < matching;
          const { stackhooks } = server;
          if (isMatching) {
            const url = `${receiver.origin}/hook/${i}`;
            matchingUuids.set(await registerMatching(stackhooks, api, OWNER, `latency ${i}`, url), i);
          } else await registerNonMatching(stackhooks, api, OWNER, i, `${receiver.origin}/never/${i}`);
        }),
      );
    }
    const registerSeconds = (performance.now() - start) / 1000;

    await receiver.reset(true);
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const cpu = [ownCpuSeconds(), await receiver.cpuSeconds(), await node.cpuSeconds()];
    const acks = await node.post(`http://127.0.0.1:${server.observerPort}/new_block`, blockFile, 1000 / rate);
    const cpuAfter = [ownCpuSeconds(), await receiver.cpuSeconds(), await node.cpuSeconds()];
    const expectedAll = blocks.length * matching;
    await receiver.until(expectedAll, 30_000).catch((err: unknown) => errors.push(String(err)));
    loop.disable();
    await server.stackhooks.ingest.idle();
    await server.stackhooks.dispatcher.idle();
    const arrivals = await receiver.records();

    const failedAcks = acks.filter((a) => a.status !== 200);
    if (failedAcks.length > 0) errors.push(`${failedAcks.length} blocks were not answered 200`);
    const measuredHeights = new Set(blocks.slice(warmup).map((b) => b.block_height));
    const ackAt = new Map(acks.map((a) => [a.height, a.ackAt]));
    const measuredAcks = acks.filter((a) => measuredHeights.has(a.height));

    const queue = server.stackhooks.container.get<DeliveryQueue>(DELIVERY_QUEUE);
    const offset = wallToMonotonicOffset();
    const logged = new Map<string, DeliveryRecord>();
    for (const [uuid, i] of matchingUuids) {
      const page = await queue.list(uuid, { offset: 0, limit: blocks.length * 2 });
      for (const record of page.results) logged.set(`/hook/${i}|${record.apply[0]?.index}`, record);
    }

    const seen = new Set<string>();
    const latencies: number[] = [];
    const stages: LatencyStages = { ingest: [], queue: [], send: [] };
    let stray = 0;
    let duplicates = 0;
    for (const arrival of arrivals) {
      if (!arrival.path.startsWith('/hook/')) {
        stray++;
        continue;
      }
      const key = `${arrival.path}|${arrival.height}`;
      if (seen.has(key)) {
        duplicates++;
        continue;
      }
      seen.add(key);
      const acked = ackAt.get(arrival.height);
      if (!measuredHeights.has(arrival.height) || acked === undefined) continue;
      latencies.push(arrival.at - acked);
      const record = logged.get(key);
      const attempt = record?.attempts[0];
      if (record && attempt) {
        const created = record.created_at - offset;
        const started = attempt.at - offset;
        stages.ingest.push(created - acked);
        stages.queue.push(started - created);
        stages.send.push(arrival.at - started);
      }
    }
    const first = measuredAcks[0];
    const last = measuredAcks.at(-1);
    const achievedRate =
      first && last && last !== first
        ? (measuredAcks.length - 1) / ((last.sentAt - first.sentAt) / 1000)
        : NaN;
    const ns = (value: number) => value / 1e6;
    return {
      hooks,
      matching,
      posted: acks.length,
      measuredBlocks: measuredAcks.length,
      achievedRate,
      expected: measuredBlocks * matching,
      found: latencies.length,
      stray,
      duplicates,
      latencies,
      ackMs: measuredAcks.map((a) => a.ackAt - a.sentAt),
      stages,
      loopDelay: { p50: ns(loop.percentile(50)), p99: ns(loop.percentile(99)), max: ns(loop.max) },
      registerSeconds,
      cpu: {
        server: cpuAfter[0] - cpu[0],
        receiver: cpuAfter[1] - cpu[1],
        node: cpuAfter[2] - cpu[2],
      },
      errors,
    };
  } finally {
    await server.stop('bench done');
    await rm(work, { recursive: true, force: true });
  }
}

// Date.now() minus monotonicMs(), to place the delivery log's wall-clock times (ms) on the
// monotonic clock; the median of a few reads, good to about a millisecond.
function wallToMonotonicOffset(): number {
  const samples: number[] = [];
  for (let i = 0; i < 21; i++) samples.push(Date.now() - monotonicMs());
  return median(samples);
}
