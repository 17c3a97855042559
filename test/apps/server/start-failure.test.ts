import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdir, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { DatabaseStartError } from '../../../adapters/store-postgres/index.js';
import { ConfigError } from '../../../apps/server/config.js';
import { DataDirInUseError } from '../../../apps/server/data-dir-lock.js';
import { startFailureLine } from '../../../apps/server/start-failure.js';
import { CLI_FROM_SOURCE, freePort, spawnServer } from '../../support/server-process.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { skipBecause } from '../../support/skip-because.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const config = { dataDir: '/srv/stackhooks', port: 3000, observerPort: 20455, databaseUrl: undefined };
const errno = (code: string, path?: string) => Object.assign(new Error(`${code}: failed`), { code, path });

/** Start the server as `npm start` does and wait for it to end; what it printed on each stream. */
async function failedStart(
  env: Record<string, string>,
  prefix: string[] = [],
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const argv = [...prefix, process.execPath, ...CLI_FROM_SOURCE, 'serve'];
  const child = spawn(argv[0], argv.slice(1), {
    cwd: ROOT,
    env: {
      ...process.env,
      STACKHOOKS_HOST: '127.0.0.1',
      STACKHOOKS_PORT: String(await freePort()),
      STACKHOOKS_OBSERVER_PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stderr, stdout };
}

/** One line on stderr, no stack, and a non-zero exit. */
function expectOneLine(result: { code: number | null; stderr: string }): string {
  expect(result.code).to.equal(1);
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines, result.stderr).to.have.length(1);
  expect(lines[0]).to.match(/^stackhooks: /);
  return lines[0];
}

describe('startFailureLine', () => {
  it('prints a configuration problem as it is', () => {
    expect(startFailureLine(new ConfigError('STACKHOOKS_PORT must be an integer'))).to.equal(
      'stackhooks: STACKHOOKS_PORT must be an integer',
    );
  });

  it('names the data folder setting when the folder cannot be written', () => {
    expect(startFailureLine(errno('EROFS', '/srv/stackhooks/stackhooks.lock'), config)).to.equal(
      'stackhooks: cannot use the data folder /srv/stackhooks: it is on a read-only file system ' +
        '(EROFS on /srv/stackhooks/stackhooks.lock); set STACKHOOKS_DATA_DIR (--data-dir) to a folder ' +
        'this user can write, or fix that one',
    );
  });

  it('names the data folder setting when a folder above a missing one cannot be created', () => {
    expect(startFailureLine(errno('EACCES', '/srv'), config)).to.match(
      /^stackhooks: cannot use the data folder \/srv\/stackhooks: this user may not write it \(EACCES on \/srv\);/,
    );
  });

  it('names the port setting when a port is taken', () => {
    const taken = Object.assign(errno('EADDRINUSE'), { port: 20455 });
    expect(startFailureLine(taken, config)).to.equal(
      'stackhooks: port 20455 is already in use; stop what listens there or set STACKHOOKS_OBSERVER_PORT to another port',
    );
  });

  it('tells which setting to check when the database refuses or never answers', () => {
    expect(
      startFailureLine(new DatabaseStartError('PostgreSQL at db:5432/x refused us: no such database', false)),
    ).to.equal(
      'stackhooks: PostgreSQL at db:5432/x refused us: no such database (check STACKHOOKS_DATABASE_URL)',
    );
    expect(
      startFailureLine(new DatabaseStartError('could not reach PostgreSQL at db:5432/x within 60 s', true)),
    ).to.match(/\(STACKHOOKS_DATABASE_WAIT sets how long to wait\)$/);
  });

  it('prints the lock refusal as it is', () => {
    expect(startFailureLine(new DataDirInUseError('/srv/stackhooks', 42))).to.equal(
      'stackhooks: the data folder /srv/stackhooks is in use by process 42; stop that server or set ' +
        'STACKHOOKS_DATA_DIR (--data-dir) to another folder',
    );
  });

  it('says how to see more about anything else', () => {
    expect(startFailureLine(new Error('boom'), config)).to.equal(
      'stackhooks: could not start: boom (--verbose shows where)',
    );
  });
});

describe('a start that fails', function () {
  this.timeout(120_000);
  let base: string;
  beforeEach(async () => {
    base = await makeTempDir('stackhooks-start-failure-');
  });
  afterEach(async () => {
    await chmod(base, 0o700).catch(() => undefined);
    await rm(base, { recursive: true, force: true });
  });

  it('refuses a database URL that is not PostgreSQL in one line naming the setting', async () => {
    const line = expectOneLine(
      await failedStart({ STACKHOOKS_DATABASE_URL: 'mysql://x', STACKHOOKS_DATA_DIR: base }),
    );
    expect(line).to.include('STACKHOOKS_DATABASE_URL must be a postgres:// or postgresql:// URL');
  });

  it('says in one line that an unreachable database was not reached, naming the wait setting', async () => {
    const line = expectOneLine(
      await failedStart({
        STACKHOOKS_DATABASE_URL: `postgres://127.0.0.1:${await freePort()}/nothing`,
        STACKHOOKS_DATABASE_WAIT: '0',
      }),
    );
    expect(line).to.match(
      /^stackhooks: could not reach PostgreSQL at .*STACKHOOKS_DATABASE_WAIT sets how long to wait\)$/,
    );
  });

  it('refuses a data folder it cannot create in one line naming the setting', async function () {
    const parent = join(base, 'read-only');
    await mkdir(parent);
    let prefix: string[] = [];
    if (process.getuid?.() === 0) {
      // Root writes through any mode: a read-only mount in a private namespace, where allowed.
      const probe = spawnSync('unshare', [
        '-m',
        'sh',
        '-c',
        'mount -t tmpfs -o ro,size=1m tmpfs "$0"',
        parent,
      ]);
      if (probe.status !== 0) {
        skipBecause(this, 'root cannot mount a read-only tmpfs in a private namespace here');
      }
      prefix = ['unshare', '-m', 'sh', '-c', 'mount -t tmpfs -o ro,size=1m tmpfs "$0" && exec "$@"', parent];
    } else await chmod(parent, 0o500);
    const dataDir = join(parent, 'missing', 'data');
    const line = expectOneLine(await failedStart({ STACKHOOKS_DATA_DIR: dataDir }, prefix));
    expect(line).to.include(`cannot use the data folder ${dataDir}`);
    expect(line).to.include('set STACKHOOKS_DATA_DIR (--data-dir)');
  });

  for (const [name, setting] of [
    ['metrics', 'STACKHOOKS_METRICS_PORT'],
    ['Chainhook 1.x', 'STACKHOOKS_V1_PORT'],
  ] as const) {
    it(`refuses a taken ${name} port in one line naming ${setting}`, async () => {
      const holder = createServer();
      await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
      const taken = (holder.address() as AddressInfo).port;
      try {
        const host = setting.replace('_PORT', '_HOST');
        const line = expectOneLine(
          await failedStart({
            STACKHOOKS_DATA_DIR: join(base, 'data'),
            [setting]: String(taken),
            [host]: '127.0.0.1',
          }),
        );
        expect(line).to.include(`cannot listen on 127.0.0.1:${taken}`);
        expect(line).to.include(`set ${setting} to a free port`);
      } finally {
        holder.close();
      }
    });
  }

  it('refuses a data folder a running server holds in one line, and shows the stack with --verbose only', async () => {
    const dataDir = join(base, 'data');
    const first = await spawnServer({
      STACKHOOKS_DATA_DIR: dataDir,
      STACKHOOKS_API_KEY: 'bootstrap-key-0123456789',
    });
    try {
      const line = expectOneLine(await failedStart({ STACKHOOKS_DATA_DIR: dataDir }));
      expect(line).to.equal(
        `stackhooks: the data folder ${dataDir} is in use by process ${first.child.pid}; ` +
          'stop that server or set STACKHOOKS_DATA_DIR (--data-dir) to another folder',
      );
      const verbose = await failedStart({ STACKHOOKS_DATA_DIR: dataDir, STACKHOOKS_VERBOSE: 'true' });
      expect(verbose.code).to.equal(1);
      expect(verbose.stderr).to.match(/\n\s+at /);
    } finally {
      first.child.kill('SIGTERM');
      await first.exited;
    }
  });
});
