import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { makeTempDir } from '../../support/temp-dir.js';
import { runCli, spawnServer } from '../../support/server-process.js';
import { send } from '../../support/raw-http.js';

function keyIn(output: string): string {
  const match = /\b(shk_[0-9a-f]{64})\b/.exec(output);
  if (!match) throw new Error(`no key in:\n${output}`);
  return match[1];
}

describe('stackhooks keys', function () {
  this.timeout(60_000);
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await makeTempDir();
  });
  afterEach(async () => rm(dataDir, { recursive: true, force: true }));

  it('creates, lists and revokes keys while no server runs, never printing a stored key', async () => {
    const env = { STACKHOOKS_DATA_DIR: dataDir };
    const created = await runCli(['keys', 'create', '--owner', 'alice'], env);
    expect(created.code, created.out).to.equal(0);
    const key = keyIn(created.out);
    const listed = await runCli(['keys', 'list'], env);
    expect(listed.out).to.match(/key_[0-9a-f]{16}\talice\t.*\tactive/);
    expect(listed.out).to.not.include(key);
    const id = /(key_[0-9a-f]{16})/.exec(listed.out)![1];
    const revoked = await runCli(['keys', 'revoke', id], env);
    expect(revoked.code, revoked.out).to.equal(0);
    expect((await runCli(['keys', 'list'], env)).out).to.match(/\trevoked /);
  });

  it('creates and revokes keys through the running server, taking effect at once', async () => {
    const server = await spawnServer({
      STACKHOOKS_DATA_DIR: dataDir,
      STACKHOOKS_API_KEY: 'bootstrap-key-0123456789',
    });
    try {
      const created = await runCli(['keys', 'create', '--owner', 'bob'], { STACKHOOKS_DATA_DIR: dataDir });
      expect(created.code, created.out).to.equal(0);
      const key = keyIn(created.out);
      expect((await send(server.baseUrl, 'GET', '/chainhooks/me', { key })).status).to.equal(200);
      const id = /created key (key_[0-9a-f]{16})/.exec(created.out)![1];
      const revoked = await runCli(['keys', 'revoke', id], { STACKHOOKS_DATA_DIR: dataDir });
      expect(revoked.code, revoked.out).to.equal(0);
      expect((await send(server.baseUrl, 'GET', '/chainhooks/me', { key })).status).to.equal(401);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it('lists no keys from a data folder that does not exist, naming the folder, and makes none', async () => {
    const missing = join(dataDir, 'not-here');
    const listed = await runCli(['keys', 'list'], { STACKHOOKS_DATA_DIR: missing });
    expect(listed.code).to.equal(1);
    expect(listed.out).to.include(`no data folder at ${missing}`);
    expect(existsSync(missing)).to.equal(false);
  });

  it('refuses to revoke an unknown key id with a clear message', async () => {
    const res = await runCli(['keys', 'revoke', 'key_0000000000000000'], { STACKHOOKS_DATA_DIR: dataDir });
    expect(res.code).to.equal(1);
    expect(res.out).to.include('no active key with id key_0000000000000000');
  });

  it('prints a first key once when the store has none, and not on the next start', async () => {
    const first = await spawnServer({ STACKHOOKS_DATA_DIR: dataDir });
    const key = keyIn(first.output());
    expect((await send(first.baseUrl, 'GET', '/chainhooks/me', { key })).status).to.equal(200);
    first.child.kill('SIGTERM');
    await first.exited;
    const second = await spawnServer({ STACKHOOKS_DATA_DIR: dataDir });
    expect(second.output()).to.not.include('shk_');
    second.child.kill('SIGTERM');
    await second.exited;
  });

  it('registers STACKHOOKS_API_KEY for owner default', async () => {
    const key = 'scripted-key-abcdef0123456789';
    const server = await spawnServer({ STACKHOOKS_DATA_DIR: dataDir, STACKHOOKS_API_KEY: key });
    try {
      expect((await send(server.baseUrl, 'GET', '/chainhooks/me', { key })).status).to.equal(200);
      expect(server.output()).to.not.include('shk_');
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it('refuses a second server on the same data folder', async () => {
    const first = await spawnServer({
      STACKHOOKS_DATA_DIR: dataDir,
      STACKHOOKS_API_KEY: 'bootstrap-key-0123456789',
    });
    try {
      const second = await spawnServer({ STACKHOOKS_DATA_DIR: dataDir }).catch((err: Error) => err);
      expect(second).to.be.instanceOf(Error);
      expect((second as Error).message).to.include('is in use by process');
    } finally {
      first.child.kill('SIGTERM');
      await first.exited;
    }
  });
});
