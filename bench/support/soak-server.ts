// The server the soak (and the hooks bench, in its child-process mode) drives: its own process,
// started through the command line as `npm start` starts it and configured by its environment as an
// operator would, so that its memory and its event loop are the server's alone (the bench's posting,
// receiving and statistics stay in the bench's process). What a bench reads of it comes from
// outside: the kernel's view of its memory, its Prometheus figures and its REST API.
import { randomBytes } from 'node:crypto';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import {
  CLI_FROM_SOURCE,
  freePort,
  ROOT,
  spawnServer,
  type ServerProcess,
} from '../../test/support/server-process.js';

const BUILT_CLI = 'dist/apps/cli/main.js';

/** The one build of this process: a bench that starts several servers compiles the package once. */
let built: Promise<void> | undefined;

/** Compile the package as `npm run build` does, so the built server is the sources' own. */
async function buildPackage(): Promise<void> {
  const child = spawn(process.execPath, ['scripts/build.mjs'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the build failed (exit code ${code})`);
}

/** The server process as the soak reads it. */
export type SoakServer = {
  pid: number;
  /** Where its REST API and its observer listen on 127.0.0.1, and the key its API takes. */
  apiPort: number;
  observerPort: number;
  apiKey: string;
  observerUrl: string;
  /** Register a hook through the REST API; its uuid. */
  register(definition: object): Promise<string>;
  /** When the oldest payload the hook's delivery log still lists was created (ms), if any. */
  oldestLoggedAt(uuid: string): Promise<number | undefined>;
  /** Resident memory now and at its highest since the last call (`peak` absent where the kernel refuses the reset). */
  memory(): Promise<{ rss: number; peak?: number }>;
  /** The server's Prometheus figures by name (labelled series summed), and each labelled series by itself (`name{labels}`). */
  figures(): Promise<Map<string, number>>;
  /**
   * Have it write a heap snapshot into `dir` (it must run with `--heapsnapshot-signal=SIGUSR2`
   * and `--diagnostic-dir=dir`), and wait until the file is whole; its path.
   */
  heapSnapshot(dir: string): Promise<string>;
  /** The error lines it logged so far. */
  errorLines(): string[];
  /** Stop it as an operator would (SIGTERM) and wait for its exit code. */
  stop(): Promise<number | null>;
};

/**
 * Start `stackhooks serve` on `dataDir` with `env` on top, and wait until its API answers: the
 * compiled package (`built`, built first) or the TypeScript sources through tsx (`sources`).
 */
export async function startSoakServer(
  from: 'built' | 'sources',
  dataDir: string,
  env: Record<string, string>,
): Promise<SoakServer> {
  if (from === 'built') await (built ??= buildPackage());
  const key = `soak-${randomBytes(16).toString('hex')}`;
  const observerPort = await freePort();
  const metricsPort = await freePort();
  const server: ServerProcess = await spawnServer(
    {
      STACKHOOKS_DATA_DIR: dataDir,
      STACKHOOKS_API_KEY: key,
      STACKHOOKS_NETWORK: 'mainnet',
      STACKHOOKS_OBSERVER_PORT: String(observerPort),
      STACKHOOKS_OBSERVER_HOST: '127.0.0.1',
      STACKHOOKS_METRICS_PORT: String(metricsPort),
      STACKHOOKS_METRICS_HOST: '127.0.0.1',
      STACKHOOKS_METRICS_TOKEN: '',
      // Registering thousands of hooks in a minute is the bench's setup, not a client's traffic.
      STACKHOOKS_RATE_LIMIT_PER_MINUTE: '10000000',
      // Info lines would only grow the captured output; warnings and errors are kept.
      STACKHOOKS_LOG_LEVEL: 'warn',
      // The embedded store unless `env` names a database (a developer's variable stays out).
      STACKHOOKS_DATABASE_URL: '',
      ...env,
    },
    undefined,
    undefined,
    from === 'built' ? [BUILT_CLI] : CLI_FROM_SOURCE,
  );
  const pid = server.child.pid!;
  // A soak that fails or is stopped midway (see the bench's signal handlers) leaves no server behind.
  process.once('exit', () => server.child.exitCode === null && server.child.kill('SIGTERM'));
  const api = `${server.baseUrl}/chainhooks/v1`;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${api}${path}`, {
      method,
      headers: { 'x-api-key': key, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await res.json()) as Record<string, unknown>;
    if (res.status >= 400)
      throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(answer)}`);
    return answer;
  };
  let peakResets = true;
  return {
    pid,
    apiPort: Number(new URL(server.baseUrl).port),
    observerPort,
    apiKey: key,
    observerUrl: `http://127.0.0.1:${observerPort}/new_block`,
    register: async (definition) => (await call('POST', '/me', definition)).uuid as string,
    oldestLoggedAt: async (uuid) => {
      const { total } = (await call('GET', `/me/${uuid}/deliveries?limit=1`)) as { total: number };
      if (total === 0) return undefined;
      const page = await call('GET', `/me/${uuid}/deliveries?limit=1&offset=${total - 1}`);
      return (page.results as { created_at: number }[])[0]?.created_at;
    },
    memory: async () => {
      const status = await readFile(`/proc/${pid}/status`, 'utf8');
      const kB = (field: string) =>
        Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024;
      const rss = kB('VmRSS');
      if (!peakResets) return { rss };
      const peak = kB('VmHWM');
      // Writing 5 sets the peak back to the resident size now, so the next read is this window's peak.
      await writeFile(`/proc/${pid}/clear_refs`, '5').catch(() => (peakResets = false));
      return peakResets ? { rss, peak } : { rss };
    },
    figures: async () => {
      const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      const figures = new Map<string, number>();
      for (const line of text.split('\n')) {
        const match = /^(([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{[^}]*\})?) (\S+)$/.exec(line);
        if (!match) continue;
        figures.set(match[2], (figures.get(match[2]) ?? 0) + Number(match[3]));
        if (match[1] !== match[2]) figures.set(match[1], Number(match[3]));
      }
      return figures;
    },
    heapSnapshot: async (dir) => {
      const before = new Set(await readdir(dir));
      process.kill(pid, 'SIGUSR2');
      // The main thread writes the file before it answers anything again, the metrics included.
      for (;;) {
        await new Promise((r) => setTimeout(r, 500));
        const name = (await readdir(dir)).find((n) => n.endsWith('.heapsnapshot') && !before.has(n));
        if (name === undefined) continue;
        // A connection the pause outlasted may be reset: the answer, not its success, is the sign.
        await fetch(`http://127.0.0.1:${metricsPort}/metrics`)
          .then((res) => res.text())
          .catch(() => undefined);
        const path = join(dir, name);
        const size = (await stat(path)).size;
        await new Promise((r) => setTimeout(r, 500));
        if ((await stat(path)).size === size) return path;
      }
    },
    errorLines: () =>
      server
        .output()
        .split('\n')
        .filter((line) => line.includes('"level":"error"')),
    stop: async () => {
      server.child.kill('SIGTERM');
      return server.exited;
    },
  };
}
