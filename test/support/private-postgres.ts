import { execFile } from 'node:child_process';
import { chown, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './server-process.js';

const run = promisify(execFile);

/**
 * A PostgreSQL cluster of the test's own, in a temporary folder on a free port, which a test may
 * stop, start and restart (never the shared server other suites use).
 */
export type PrivatePostgres = {
  port: number;
  /** `postgres://postgres@127.0.0.1:port/postgres`, with `?schema=` when given. */
  url(schema?: string): string;
  /** A fast shutdown: sessions are ended, as in an operator's restart. */
  stop(): Promise<void>;
  /** An immediate shutdown, as a crash: no checkpoint, recovery at the next start. */
  crash(): Promise<void>;
  /** Start it again on the same port and folder. */
  start(): Promise<void>;
  /** Stop, then start (a fast restart). */
  restart(): Promise<void>;
  /** Stop it for good and delete its folder. */
  destroy(): Promise<void>;
};

/** Start a private cluster, or say why this machine cannot (the caller skips with that reason). */
export async function startPrivatePostgres(): Promise<PrivatePostgres | { skipped: string }> {
  const bin = await postgresBinaries();
  if (!bin) return { skipped: 'no PostgreSQL server binaries under /usr/lib/postgresql/*/bin' };
  const root = process.getuid?.() === 0;
  let owner: { uid: number; gid: number } | undefined;
  if (root) {
    try {
      const [uid, gid] = await Promise.all([
        run('id', ['-u', 'postgres']).then((r) => Number(r.stdout.trim())),
        run('id', ['-g', 'postgres']).then((r) => Number(r.stdout.trim())),
      ]);
      owner = { uid, gid };
    } catch {
      return { skipped: 'running as root and there is no postgres user to run a private cluster as' };
    }
  }
  // PostgreSQL refuses to run as root: as root, every command runs as the postgres user.
  const asOwner = (command: string, args: string[]) =>
    root
      ? run('runuser', ['-u', 'postgres', '--', join(bin, command), ...args])
      : run(join(bin, command), args);
  const dir = await mkdtemp(join(tmpdir(), 'stackhooks-pg-'));
  if (owner) await chown(dir, owner.uid, owner.gid);
  const data = join(dir, 'data');
  const port = await freePort();
  try {
    await asOwner('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    return { skipped: `initdb failed: ${(err as Error).message.split('\n')[0]}` };
  }
  const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c shared_buffers=16MB`;
  const ctl = (...args: string[]) => asOwner('pg_ctl', ['-D', data, '-l', join(dir, 'log'), ...args]);
  const start = async () => void (await ctl('-w', '-o', settings, 'start'));
  const stop = async () => void (await ctl('-w', '-m', 'fast', 'stop'));
  try {
    await start();
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    return { skipped: `the private cluster did not start: ${(err as Error).message.split('\n')[0]}` };
  }
  return {
    port,
    url(schema) {
      const base = `postgres://postgres@127.0.0.1:${port}/postgres`;
      return schema ? `${base}?schema=${schema}` : base;
    },
    stop,
    start,
    async crash() {
      await ctl('-w', '-m', 'immediate', 'stop');
    },
    async restart() {
      await stop();
      await start();
    },
    async destroy() {
      await ctl('-w', '-m', 'immediate', 'stop').catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The newest installed server's bin folder (`STACKHOOKS_TEST_PG_BIN` overrides). */
async function postgresBinaries(): Promise<string | undefined> {
  if (process.env.STACKHOOKS_TEST_PG_BIN) return process.env.STACKHOOKS_TEST_PG_BIN;
  const versions = await readdir('/usr/lib/postgresql').catch(() => [] as string[]);
  const newest = versions.filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a))[0];
  return newest && join('/usr/lib/postgresql', newest, 'bin');
}
