// The delivery half of the Postgres bench: 100 hooks on every STX event × 100 blocks with one STX
// transfer each, queued before any sending starts, then sent to a receiver process by N worker
// processes on a fresh Postgres schema, or by the one embedded-default process.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { createStackhooks, type Stackhooks } from '../../apps/server/container.js';
import { silentLogger } from '../../adapters/system/index.js';
import type { HookDefinition } from '../../core/hooks/definition.js';
import { WEBHOOK_SENDER, type WebhookSender } from '../../core/ports/webhook-sender.js';
import type { NodeBlock } from '../../test/support/block-builder.js';
import { transferBlocks } from './deliver-hooks.js';
import { postgresCpuSeconds, processCpuSeconds } from './pg-cpu.js';
import type { PgReceiver } from './pg-receiver-process.js';
import { dropBenchSchema, freshBenchSchema } from './pg-schema.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OWNER = 'bench';
/** How a worker process is started, after any extra Node options (see `workerNodeArgs`). */
const WORKER_ARGS = ['--import', 'tsx', 'apps/cli/main.ts', 'serve', '--role', 'worker'];
/** Long enough for the slowest plausible drain (100/s), short enough to end a stuck run. */
const DRAIN_TIMEOUT_MS = 150_000;

/** One drain: payloads a second from the first worker ready (or first arrival) to the last arrival. */
export type DeliveryRun = {
  payloads: number;
  /** Seconds from sending start to the last payload's arrival. */
  seconds: number;
  rate: number;
  /** Seconds from spawning the workers until the last one logged "delivery started" (0 embedded). */
  startupSeconds: number;
  /** Seconds to register the hooks and ingest the blocks (the queueing, not timed in `rate`). */
  queueSeconds: number;
  /** Payloads a second once every worker is ready (arrivals before that left out); equal to `rate` embedded. */
  steadyRate: number;
  /** CPU seconds of the sending process(es) during the drain (start-up included for workers). */
  senderCpuSeconds: number;
  /** Of `senderCpuSeconds`, what the workers had used by the time each was ready (start-up; 0 embedded). */
  senderStartupCpuSeconds: number;
  /** CPU seconds of the PostgreSQL server's processes during the drain (0 embedded). */
  postgresCpuSeconds: number;
  /** Arrivals within the timeout, when the drain did not finish. */
  incomplete?: number;
  errorLines: number;
};

/** `count` chained blocks, each with one signed STX transfer from alice to bob. */
export function transferChain(count: number): Promise<NodeBlock[]> {
  return transferBlocks(count, 'bench-postgres');
}

function hookDefinition(i: number, origin: string): HookDefinition {
  return {
    name: `bench ${i}`,
    version: '1',
    chain: 'stacks',
    network: 'mainnet',
    filters: { events: [{ type: 'stx_event' }] },
    action: { type: 'http_post', url: `${origin}/hook/${i}` },
    options: { enable_on_registration: true },
  };
}

/** Register the hooks and ingest the blocks, so one payload per hook and block is queued; seconds taken. */
async function queuePayloads(stackhooks: Stackhooks, hooks: number, blocks: NodeBlock[], origin: string) {
  const start = performance.now();
  for (let i = 0; i < hooks; i++) await stackhooks.registry.register(OWNER, hookDefinition(i, origin));
  for (const block of blocks) await stackhooks.ingest.ingestNodeBlock(block);
  return (performance.now() - start) / 1000;
}

/** Queue on a fresh schema, then drain it with `workers` worker processes. */
export async function drainWithWorkers(options: {
  workers: number;
  hooks: number;
  blocks: NodeBlock[];
  receiver: PgReceiver;
}): Promise<DeliveryRun> {
  const { workers, hooks, blocks, receiver } = options;
  const payloads = hooks * blocks.length;
  const schema = freshBenchSchema();
  const dataDir = await mkdtemp(join(tmpdir(), 'stackhooks-bench-pg-worker-'));
  const children: ChildProcess[] = [];
  try {
    const stackhooks = await createStackhooks({
      databaseUrl: schema.url,
      dataDir,
      delivery: { allowPrivateTargets: true },
      adapters: { logger: silentLogger },
    });
    let queueSeconds: number;
    try {
      queueSeconds = await queuePayloads(stackhooks, hooks, blocks, receiver.origin);
    } finally {
      await stackhooks.close();
      closeSender(stackhooks);
    }
    await receiver.reset();
    const reached = receiver.until(payloads, DRAIN_TIMEOUT_MS);
    const pgCpuBefore = postgresCpuSeconds();
    const spawnedAt = epochMs();
    let errorLines = 0;
    const ready: Promise<number>[] = [];
    const startupCpu: number[] = [];
    for (let i = 0; i < workers; i++) {
      const child = spawn(process.execPath, [...workerNodeArgs(), ...WORKER_ARGS], {
        cwd: ROOT,
        env: {
          ...process.env,
          STACKHOOKS_DATABASE_URL: schema.url,
          STACKHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
          STACKHOOKS_DATA_DIR: dataDir,
          // Many workers on one machine: each takes a free metrics port.
          STACKHOOKS_METRICS_PORT: '0',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      child.stderr!.on('data', (chunk: Buffer) => {
        errorLines++;
        process.stderr.write(`worker ${i}: ${chunk.toString()}`);
      });
      ready.push(
        new Promise<number>((resolve, reject) => {
          child.once('exit', (code) => reject(new Error(`worker ${i} exited (${code}) before it was ready`)));
          createInterface({ input: child.stdout! }).on('line', (line) => {
            if (line.includes('"msg":"delivery started"')) {
              startupCpu[i] = processCpuSeconds(child.pid);
              resolve(epochMs());
            } else if (line.includes('"level":"error"')) {
              errorLines++;
              if (errorLines <= 5) process.stderr.write(`worker ${i}: ${line}\n`);
            }
          });
        }),
      );
    }
    const readyAt = await Promise.all(ready);
    const lastReady = Math.max(...readyAt);
    const atLastReady = (await receiver.stats()).arrivals;
    let result: { at: number; firstAt: number };
    const cpu = () => ({
      senderCpuSeconds: children.reduce((sum, child) => sum + processCpuSeconds(child.pid), 0),
      senderStartupCpuSeconds: startupCpu.reduce((sum, seconds) => sum + seconds, 0),
      postgresCpuSeconds: postgresCpuSeconds() - pgCpuBefore,
    });
    try {
      result = await reached;
    } catch {
      const { arrivals } = await receiver.stats();
      const rate = arrivals / ((epochMs() - Math.min(...readyAt)) / 1000);
      return {
        payloads,
        seconds: DRAIN_TIMEOUT_MS / 1000,
        rate,
        steadyRate: rate,
        ...cpu(),
        startupSeconds: (lastReady - spawnedAt) / 1000,
        queueSeconds,
        incomplete: arrivals,
        errorLines,
      };
    }
    // The first worker may send before its "delivery started" line reaches this process.
    const start = Math.min(Math.min(...readyAt), result.firstAt);
    const seconds = (result.at - start) / 1000;
    return {
      payloads,
      seconds,
      rate: payloads / seconds,
      steadyRate: (payloads - atLastReady) / ((result.at - lastReady) / 1000),
      ...cpu(),
      startupSeconds: (lastReady - spawnedAt) / 1000,
      queueSeconds,
      errorLines,
    };
  } finally {
    await Promise.all(children.map(stopChild));
    await dropBenchSchema(schema.schema);
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Queue on a fresh embedded data folder, then drain it with `startDelivery()` in this process. */
export async function drainEmbedded(options: {
  hooks: number;
  blocks: NodeBlock[];
  receiver: PgReceiver;
}): Promise<DeliveryRun> {
  const { hooks, blocks, receiver } = options;
  const payloads = hooks * blocks.length;
  const dataDir = await mkdtemp(join(tmpdir(), 'stackhooks-bench-pg-embedded-'));
  let errorLines = 0;
  const stackhooks = await createStackhooks({
    dataDir,
    delivery: { allowPrivateTargets: true },
    adapters: {
      logger: {
        debug: () => undefined,
        info: () => undefined,
        warn: () => undefined,
        error: (message, fields) => {
          errorLines++;
          if (errorLines <= 5) process.stderr.write(`embedded: ${message} ${JSON.stringify(fields)}\n`);
        },
      },
    },
  });
  try {
    const queueSeconds = await queuePayloads(stackhooks, hooks, blocks, receiver.origin);
    // Let the archive's delayed checkpoint pass before the clock starts.
    await sleep(1_500);
    await receiver.reset();
    const reached = receiver.until(payloads, DRAIN_TIMEOUT_MS);
    const cpuBefore = process.cpuUsage();
    const start = epochMs();
    stackhooks.startDelivery();
    const { at } = await reached;
    const used = process.cpuUsage(cpuBefore);
    await stackhooks.dispatcher.idle();
    const seconds = (at - start) / 1000;
    return {
      payloads,
      seconds,
      rate: payloads / seconds,
      steadyRate: payloads / seconds,
      senderCpuSeconds: (used.user + used.system) / 1e6,
      senderStartupCpuSeconds: 0,
      postgresCpuSeconds: 0,
      startupSeconds: 0,
      queueSeconds,
      errorLines,
    };
  } finally {
    await stackhooks.close();
    closeSender(stackhooks);
    await rm(dataDir, { recursive: true, force: true });
  }
}

function closeSender(stackhooks: Stackhooks): void {
  (stackhooks.container.get<WebhookSender>(WEBHOOK_SENDER) as { close?(): void }).close?.();
}

/** SIGTERM a worker this bench started (by its handle), SIGKILL after 10 s. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Extra Node options for the workers from `STACKHOOKS_BENCH_WORKER_NODE_ARGS` (say `--cpu-prof`, which NODE_OPTIONS refuses). */
function workerNodeArgs(): string[] {
  return (process.env.STACKHOOKS_BENCH_WORKER_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');
}

function epochMs(): number {
  return performance.timeOrigin + performance.now();
}
