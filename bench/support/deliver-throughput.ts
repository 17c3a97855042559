// The throughput half of the delivery bench: stackhooks draining a full outbox into the receiver
// (or into a sender stub), and beside it bare got POST loops to the same receiver.
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import got from 'got';
import { createHttpWebhookSender } from '../../adapters/delivery-got/index.js';
import { MemoryOutbox } from '../../adapters/outbox/index.js';
import { createStackhooks } from '../../apps/server/container.js';
import { DELIVERY_QUEUE, type DeliveryQueue } from '../../core/ports/delivery-queue.js';
import type { Logger } from '../../core/ports/logger.js';
import { WEBHOOK_SENDER, type SendResult, type WebhookSender } from '../../core/ports/webhook-sender.js';
import { webhookHeaders } from '../../core/delivery/webhook-headers.js';
import type { NodeBlock } from '../../test/support/block-builder.js';
import type { Receiver } from './deliver-children.js';
import { fsyncCount, resetFsyncCount, type FsyncCount } from './deliver-fsync-count.js';
import { registerMatching, type HookApi } from './deliver-hooks.js';
import { monotonicMs } from './deliver-ipc.js';
import { ownCpuSeconds } from './deliver-report.js';
import { V1_AUTHORIZATION } from './v1-hooks.js';

/** The owner of the bench's hooks. */
export const OWNER = 'bench';
/** How long a drain or a loop may take before the bench gives up on it. */
const DRAIN_TIMEOUT_MS = 300_000;

/** One timed run: how many requests, in how long, and the CPU each side used. */
export type LoopRun = {
  requests: number;
  seconds: number;
  rate: number;
  /** CPU seconds of the bench process during the run. */
  cpuSeconds: number;
  /** CPU seconds of the receiver process during the run (0 with a stub). */
  receiverCpuSeconds: number;
};

/** A drain of the outbox: the timed part, and what came before it and with it. */
export type DrainRun = LoopRun & {
  registerSeconds: number;
  ingestSeconds: number;
  /** Fsyncs (and the wall time they took) in the bench process during the drain. */
  fsync: FsyncCount;
  /**
   * The delivery loop's prune at start, ms: with a journal that grew since it was opened it
   * compacts it (a snapshot of every queued payload), during the timed drain.
   */
  startupPruneMs: number;
  /** Requests beyond the expected at the receiver once delivery went idle (duplicates). */
  extra: number;
  /** Error lines the service logged. */
  errors: string[];
};

/** Where a drain sends: the service's own sender to the receiver, or a stub answering 200 at once. */
export type DrainVariant = { sender: 'real' | 'stub'; outbox: 'fs' | 'memory' };

/** A body and headers like those stackhooks sends for one of the bench's blocks. */
export type SampleRequest = { body: string; headers: Record<string, string>; parsed: unknown };

/**
 * Shape one real payload (one matching hook registered through `api`, the first block, a memory
 * outbox) and return its body as sent and the headers the dispatcher would add, for the bare loops.
 */
export async function samplePayload(block: NodeBlock, url: string, api: HookApi): Promise<SampleRequest> {
  const dataDir = await mkdtemp(join(tmpdir(), 'stackhooks-bench-deliver-'));
  const queue = new MemoryOutbox();
  const stackhooks = await createStackhooks({
    dataDir,
    delivery: { allowPrivateTargets: true },
    adapters: { deliveries: queue, logger: quietLogger([]) },
  });
  try {
    await registerMatching(stackhooks, api, OWNER, 'sample', url);
    await stackhooks.ingest.ingestNodeBlock(block);
    const [due] = await queue.due(Date.now(), 1, new Set());
    if (!due) throw new Error('the sample block queued no payload');
    const body = due.payload.body_text;
    const headers = webhookHeaders(
      due.payload,
      body,
      Math.floor(Date.now() / 1000),
      null,
      stackhooks.settings.serverVersion,
    );
    // A 1.x predicate's `authorization_header` goes with each of its payloads.
    if (api === 'v1') headers.authorization = V1_AUTHORIZATION;
    return { body, headers, parsed: JSON.parse(body) as unknown };
  } finally {
    await stackhooks.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * Register `hooks` enabled STX hooks (or 1.x predicates) pointing at the receiver, ingest `blocks` (each queues one
 * payload per hook) with delivery stopped, then start delivery and time until every payload has
 * reached the receiver (or the stub).
 */
export async function drainStackhooks(options: {
  blocks: NodeBlock[];
  hooks: number;
  /** Normal-lane slots; the service's default when undefined. */
  concurrency: number | undefined;
  receiver: Receiver;
  variant: DrainVariant;
  /** How long the receiver takes to answer each request (default 0). */
  answerAfterMs?: number;
  /** Which API the hooks are registered through (2.0's, or 1.x's predicates). */
  api: HookApi;
}): Promise<DrainRun> {
  const { blocks, hooks, concurrency, receiver, variant, answerAfterMs = 0, api } = options;
  const expected = hooks * blocks.length;
  const dataDir = await mkdtemp(join(tmpdir(), 'stackhooks-bench-deliver-'));
  const errors: string[] = [];
  const stub = variant.sender === 'stub' ? new StubSender() : undefined;
  const stackhooks = await createStackhooks({
    dataDir,
    delivery: { allowPrivateTargets: true, ...(concurrency !== undefined && { concurrency }) },
    adapters: {
      logger: quietLogger(errors),
      ...(stub ? { sender: stub } : {}),
      ...(variant.outbox === 'memory' ? { deliveries: new MemoryOutbox() } : {}),
    },
  });
  try {
    let start = performance.now();
    await Promise.all(
      Array.from({ length: hooks }, (_, i) =>
        registerMatching(stackhooks, api, OWNER, `bench ${i}`, `${receiver.origin}/hook/${i}`),
      ),
    );
    const registerSeconds = (performance.now() - start) / 1000;
    start = performance.now();
    for (const block of blocks) await stackhooks.ingest.ingestNodeBlock(block);
    const ingestSeconds = (performance.now() - start) / 1000;
    // Let the archive's checkpoint (1 s after its first unsynced change) happen before the clock starts.
    await sleep(1_500);

    await receiver.reset(false, answerAfterMs);
    const reached = stub ? stub.until(expected) : receiver.until(expected, DRAIN_TIMEOUT_MS);
    resetFsyncCount();
    const cpu = ownCpuSeconds();
    const receiverCpu = await receiver.cpuSeconds();
    const startupPrune = timePrune(stackhooks.container.get<DeliveryQueue>(DELIVERY_QUEUE));
    const t0 = monotonicMs();
    stackhooks.startDelivery();
    const at = (await reached).at;
    const seconds = (at - t0) / 1000;
    const fsync = fsyncCount();
    const cpuSeconds = ownCpuSeconds() - cpu;
    const receiverCpuSeconds = stub ? 0 : (await receiver.cpuSeconds()) - receiverCpu;
    await stackhooks.dispatcher.idle();
    const arrived = stub ? stub.sent : (await receiver.stats()).arrivals;
    return {
      requests: expected,
      seconds,
      rate: expected / seconds,
      cpuSeconds,
      receiverCpuSeconds,
      registerSeconds,
      ingestSeconds,
      fsync,
      startupPruneMs: startupPrune.ms,
      extra: arrived - expected,
      errors,
    };
  } finally {
    await stackhooks.close();
    (stackhooks.container.get<WebhookSender>(WEBHOOK_SENDER) as { close?(): void }).close?.();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** How a POST loop sends: plain `node:http`, plain got, or stackhooks' got sender alone. */
export type LoopKind = 'http' | 'bare' | 'sender';

/**
 * POST the sample `total` times to the receiver with `concurrency` in flight: with plain
 * `node:http.request` and a keep-alive agent (`http`), with plain got and the same agent (`bare`),
 * or through stackhooks' sender alone (`sender`, the `node:http` one the service uses: its guard,
 * timeout and body cap, no outbox or dispatcher).
 */
export async function postLoop(options: {
  kind: LoopKind;
  sample: SampleRequest;
  total: number;
  concurrency: number;
  receiver: Receiver;
  /** How long the receiver takes to answer each request (default 0). */
  answerAfterMs?: number;
}): Promise<LoopRun> {
  const { kind, sample, total, concurrency, receiver, answerAfterMs = 0 } = options;
  const url = `${receiver.origin}/hook/bare`;
  const agent = new http.Agent({ keepAlive: true, maxSockets: Math.max(64, concurrency) });
  const client = got.extend({
    agent: { http: agent },
    retry: { limit: 0 },
    throwHttpErrors: false,
    followRedirect: false,
    decompress: false,
  });
  const sender = createHttpWebhookSender({ allowPrivateTargets: true });
  const post =
    kind === 'http'
      ? () => httpPost(agent, url, sample)
      : kind === 'bare'
        ? async () => (await client.post(url, { headers: sample.headers, body: sample.body })).statusCode
        : async () =>
            (await sender.send({ url, headers: sample.headers, body: sample.body, timeoutMs: 10_000 }))
              .status;
  await receiver.reset(false, answerAfterMs);
  const reached = receiver.until(total, DRAIN_TIMEOUT_MS);
  const cpu = ownCpuSeconds();
  const receiverCpu = await receiver.cpuSeconds();
  let started = 0;
  let failed = 0;
  const worker = async () => {
    while (started < total) {
      started++;
      if ((await post()) !== 200) failed++;
    }
  };
  const t0 = monotonicMs();
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
    const at = (await reached).at;
    if (failed > 0) throw new Error(`${failed} of ${total} ${kind} POSTs did not get a 200`);
    const seconds = (at - t0) / 1000;
    return {
      requests: total,
      seconds,
      rate: total / seconds,
      cpuSeconds: ownCpuSeconds() - cpu,
      receiverCpuSeconds: (await receiver.cpuSeconds()) - receiverCpu,
    };
  } finally {
    agent.destroy();
    sender.close();
  }
}

/** One POST with `node:http` alone: the floor under any HTTP client; resolves with the status. */
function httpPost(agent: http.Agent, url: string, sample: SampleRequest): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = { ...sample.headers, 'content-length': String(Buffer.byteLength(sample.body)) };
    const req = http.request(url, { method: 'POST', agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(sample.body);
  });
}

/** Milliseconds to JSON.stringify `body` `count` times (what the dispatcher does once per attempt). */
export function stringifyMs(body: unknown, count: number): number {
  for (let i = 0; i < 200; i++) JSON.stringify(body);
  const start = performance.now();
  let length = 0;
  for (let i = 0; i < count; i++) length += JSON.stringify(body).length;
  const ms = performance.now() - start;
  return length > 0 ? ms : NaN;
}

// Time the outbox's first prune (the delivery loop runs one at start) by wrapping this instance's method.
function timePrune(queue: DeliveryQueue): { ms: number } {
  const timed = { ms: NaN };
  const prune = queue.prune.bind(queue);
  queue.prune = async (before) => {
    const start = performance.now();
    try {
      return await prune(before);
    } finally {
      if (Number.isNaN(timed.ms)) timed.ms = performance.now() - start;
    }
  };
  return timed;
}

/** A sender that answers 200 at once and counts sends; `until` resolves at the `count`-th. */
class StubSender implements WebhookSender {
  sent = 0;
  private waiter: { count: number; resolve: (r: { at: number }) => void } | undefined;

  async send(): Promise<SendResult> {
    this.sent++;
    if (this.waiter && this.sent === this.waiter.count) this.waiter.resolve({ at: monotonicMs() });
    return { status: 200, retryAfterSeconds: null, error: null, refusedTarget: false, latencyMs: 0 };
  }

  until(count: number): Promise<{ at: number }> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the stub got ${this.sent} of ${count} sends within ${DRAIN_TIMEOUT_MS} ms`)),
        DRAIN_TIMEOUT_MS,
      );
      this.waiter = {
        count,
        resolve: (reached) => {
          clearTimeout(timer);
          resolve(reached);
        },
      };
    });
  }
}

// The service's log: info dropped, errors kept for the report (and shown at once on stderr).
function quietLogger(errors: string[]): Logger {
  return {
    debug: () => {},
    info: () => {},
    warn: () => {},
    error: (message, fields) => {
      const line = `${message} ${JSON.stringify(fields ?? {})}`;
      if (errors.length < 20) process.stderr.write(`stackhooks: ${line}\n`);
      errors.push(line);
    },
  };
}
