import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { DataDirInUseError, LOCK_FILE_NAME, lockDataDir } from '../../../apps/server/data-dir-lock.js';
import { makeTempDir } from '../../support/temp-dir.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** A separate process that takes the folder's lock and holds it until killed. */
async function holdInAnotherProcess(dataDir: string): Promise<{ pid: number; kill: () => Promise<void> }> {
  const script =
    `import { lockDataDir } from './apps/server/data-dir-lock.ts';` +
    `await lockDataDir(${JSON.stringify(dataDir)}); console.log('locked'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('locked')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the holder exited (${code})`)));
  });
  return {
    pid: child.pid as number,
    kill: async () => {
      child.kill('SIGKILL');
      await once(child, 'exit');
    },
  };
}

describe('lockDataDir', function () {
  this.timeout(30_000);
  let base: string;
  let dataDir: string;
  beforeEach(async () => {
    base = await makeTempDir('stackhooks-lock-');
    dataDir = join(base, 'data');
  });
  afterEach(async () => rm(base, { recursive: true, force: true }));

  it('starts when the lock file names a live process that does not hold the lock (pid 1)', async () => {
    const lock = await lockDataDir(dataDir);
    await lock.release();
    await writeFile(join(dataDir, LOCK_FILE_NAME), '1');
    const again = await lockDataDir(dataDir);
    expect(await readFile(join(dataDir, LOCK_FILE_NAME), 'utf8')).to.equal(String(process.pid));
    await again.release();
  });

  it('starts when the lock file is empty', async () => {
    await (await lockDataDir(dataDir)).release();
    await writeFile(join(dataDir, LOCK_FILE_NAME), '');
    await (await lockDataDir(dataDir)).release();
  });

  it('starts when the process that held the lock was killed', async () => {
    const holder = await holdInAnotherProcess(dataDir);
    expect(await readFile(join(dataDir, LOCK_FILE_NAME), 'utf8')).to.equal(String(holder.pid));
    await holder.kill();
    await (await lockDataDir(dataDir)).release();
  });

  it('refuses, naming the holder and what to do, while a live process holds the folder', async () => {
    const holder = await holdInAnotherProcess(dataDir);
    try {
      const refused = await lockDataDir(dataDir).catch((err: unknown) => err);
      expect(refused).to.be.instanceOf(DataDirInUseError);
      expect((refused as Error).message).to.equal(
        `the data folder ${dataDir} is in use by process ${holder.pid}; ` +
          'stop that server or set STACKHOOKS_DATA_DIR (--data-dir) to another folder',
      );
    } finally {
      await holder.kill();
    }
  });

  it('refuses a second lock in the same process until the first is released', async () => {
    const first = await lockDataDir(dataDir);
    expect(await lockDataDir(dataDir).catch((err: unknown) => err)).to.be.instanceOf(DataDirInUseError);
    await first.release();
    await (await lockDataDir(dataDir)).release();
  });

  it('creates the data folder readable by its owner only, and the lock file 0600', async () => {
    const lock = await lockDataDir(dataDir);
    expect((await stat(dataDir)).mode & 0o777).to.equal(0o700);
    expect((await stat(join(dataDir, LOCK_FILE_NAME))).mode & 0o777).to.equal(0o600);
    await lock.release();
  });
});
