// The server the hooks bench drives, in one of two places: in the bench's own process (its event
// loop watched directly, its memory shared with the bench's client), or as its own process started
// from the compiled package or the sources (`startSoakServer`), read from outside: its memory from
// /proc, its heap and event-loop delay from its /metrics.
import { randomBytes } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startBenchServer } from './bench-server.js';
import { startSoakServer } from './soak-server.js';

/** Where the server runs: in the bench's process, or its own from `dist/` or from the sources. */
export type ServerPlace = 'in-process' | 'built' | 'sources';

/** Memory as the bench reports it, in bytes. */
export type MemoryReading = {
  /** Resident memory now. */
  rss: number;
  /** The highest resident memory since the last reading, where the kernel lets it be reset. */
  peak?: number;
  /** The main thread's V8 heap in use, and memory held outside it (buffers, strings' backing stores). */
  heapUsed: number;
  external: number;
};

/** The running server as the bench sees it. */
export type HooksServer = {
  /** The server's own process; absent in the bench's. */
  pid?: number;
  apiPort: number;
  observerPort: number;
  apiKey: string;
  /** The server's memory; in the bench's process, the process's (server and client together). */
  memory(): Promise<MemoryReading>;
  /** Start watching the server's main event loop; the returned call gives its longest delay since, in ms. */
  watchLoop(): Promise<() => Promise<number>>;
  /** How many error lines it logged so far. */
  errorCount(): number;
  /** Stop it as an operator would (SIGTERM in its own process) and wait until it has stopped. */
  stop(): Promise<void>;
};

/** Start the server on `dataDir` with `env` on top, in `place`. */
export async function startHooksServer(
  place: ServerPlace,
  dataDir: string,
  env: Record<string, string>,
): Promise<HooksServer> {
  return place === 'in-process' ? inProcess(dataDir, env) : ownProcess(place, dataDir, env);
}

async function inProcess(dataDir: string, env: Record<string, string>): Promise<HooksServer> {
  const errors: string[] = [];
  const apiKey = `bench-${randomBytes(16).toString('hex')}`;
  const server = await startBenchServer({ dataDir, errors, env: { ...env, STACKHOOKS_API_KEY: apiKey } });
  let stopped: Promise<void> | undefined;
  return {
    apiPort: server.port,
    observerPort: server.observerPort,
    apiKey,
    memory: memoryOfThisProcess,
    watchLoop: async () => {
      const loop = monitorEventLoopDelay({ resolution: 5 });
      loop.enable();
      return async () => {
        loop.disable();
        return loop.max / 1e6;
      };
    },
    errorCount: () => errors.length,
    stop: () => (stopped ??= server.stop()),
  };
}

async function ownProcess(
  place: 'built' | 'sources',
  dataDir: string,
  env: Record<string, string>,
): Promise<HooksServer> {
  const server = await startSoakServer(place, dataDir, env);
  let stopped: Promise<void> | undefined;
  return {
    pid: server.pid,
    apiPort: server.apiPort,
    observerPort: server.observerPort,
    apiKey: server.apiKey,
    memory: async () => {
      const { rss, peak } = await server.memory();
      const figures = await server.figures();
      return {
        rss,
        peak,
        heapUsed: figures.get('nodejs_heap_size_used_bytes') ?? NaN,
        external: figures.get('nodejs_external_memory_bytes') ?? NaN,
      };
    },
    // prom-client keeps the longest delay since its last scrape (at a 10 ms resolution): a scrape
    // now starts the window, the one at the end reads it.
    watchLoop: async () => {
      await server.figures();
      return async () => ((await server.figures()).get('nodejs_eventloop_lag_max_seconds') ?? NaN) * 1000;
    },
    errorCount: () => server.errorLines().length,
    stop: () =>
      (stopped ??= server.stop().then((code) => {
        if (code !== 0) throw new Error(`the server exited with code ${code}`);
      })),
  };
}

/** This process's memory (no peak: the kernel's is the process's whole life). */
export async function memoryOfThisProcess(): Promise<MemoryReading> {
  const { rss, heapUsed, external } = process.memoryUsage();
  return { rss, heapUsed, external };
}
