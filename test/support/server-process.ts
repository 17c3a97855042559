import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

/** The project's folder, where the server processes run. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Node's arguments that run the `stackhooks` command line from its sources, as the build's bin would. */
export const CLI_FROM_SOURCE = ['--import', 'tsx', 'apps/cli/main.ts'];

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The server as its own process (`stackhooks serve` from the sources), as `npm start` runs it. */
export type ServerProcess = {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
  exited: Promise<number | null>;
};

/**
 * Start the server process and wait until it is ready: it answers the status route (the default),
 * or it has logged a line containing `readyLine` (for processes that serve no API). `watch` sees the
 * output so far each time the process writes, from the start (before it is ready). `cli` is how
 * node runs the command line (default: from the sources).
 */
export async function spawnServer(
  env: Record<string, string>,
  readyLine?: string,
  watch?: (output: string) => void,
  cli: string[] = CLI_FROM_SOURCE,
): Promise<ServerProcess> {
  const port = env.STACKHOOKS_PORT ?? String(await freePort());
  const child = spawn(process.execPath, [...cli, 'serve', ...(env.ROLE ? ['--role', env.ROLE] : [])], {
    cwd: ROOT,
    env: {
      ...process.env,
      STACKHOOKS_HOST: '127.0.0.1',
      STACKHOOKS_OBSERVER_PORT: '0',
      // Several servers (and several test runs) share this machine: no fixed metrics port.
      STACKHOOKS_METRICS_PORT: '0',
      STACKHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
      ...env,
      STACKHOOKS_PORT: port,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const take = (c: Buffer) => {
    output += c.toString();
    watch?.(output);
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const apiListening = new RegExp(`"port":${port},[^\n]*"msg":"api listening"`);
  const quiet = ['warn', 'error', 'silent'].includes(env.STACKHOOKS_LOG_LEVEL ?? '');
  const deadline = Date.now() + 45_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}):\n${output}`);
    if (readyLine !== undefined) {
      if (output.includes(readyLine)) break;
    } else {
      try {
        const res = await fetch(`${baseUrl}/chainhooks/v1`);
        // Ours only once this child says it listens there: a port found free may be taken by
        // another test's server before this one binds it, and that one answers too. A child told
        // to log warnings only never says so (benches, which run alone, start them so).
        if (res.ok && (quiet || apiListening.test(output))) break;
      } catch {
        // not listening yet
      }
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start in time:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, baseUrl, output: () => output, exited };
}

/** Where a server process serves `/metrics`, `/health` and `/ready`, from its `metrics listening` line. */
export function metricsUrl(server: ServerProcess): string {
  const line = server
    .output()
    .split('\n')
    .find((l) => l.includes('"msg":"metrics listening"'));
  if (!line) throw new Error(`no "metrics listening" line in:\n${server.output()}`);
  return `http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}`;
}

/** Run the `stackhooks` command line to completion: its output as it came (`out`), and each stream apart. */
export async function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...CLI_FROM_SOURCE, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString();
    stdout += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    out += c.toString();
    stderr += c.toString();
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, out, stdout, stderr };
}

/** Post each block to a server process's observer in turn, as a node would, expecting its 200. */
export async function postNewBlocks(observerPort: string, blocks: object[]): Promise<void> {
  for (const block of blocks) {
    const res = await fetch(`http://127.0.0.1:${observerPort}/new_block`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(block),
    });
    if (res.status !== 200) throw new Error(`the observer answered ${res.status}: ${await res.text()}`);
  }
}
