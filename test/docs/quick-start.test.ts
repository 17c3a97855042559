import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { CLI_FROM_SOURCE, freePort, runCli, spawnServer } from '../support/server-process.js';
import { send } from '../support/raw-http.js';
import { makeTempDir } from '../support/temp-dir.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The JSON body of the README's curl registration (`-d '…'`). */
async function readmeHookDefinition(): Promise<Record<string, unknown>> {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const quickStart = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('## Configuration'));
  const match = /-d '(\{[\s\S]*?\})'/.exec(quickStart);
  if (!match) throw new Error('no curl -d body in the README quick start');
  return JSON.parse(match[1]) as Record<string, unknown>;
}

describe('the README quick start', function () {
  this.timeout(120_000);

  it('takes a newcomer from npm start to deliveries printed by stackhooks receive', async () => {
    const dataDir = await makeTempDir();
    const receiverPort = await freePort();
    const observerPort = String(await freePort());
    const server = await spawnServer({
      STACKHOOKS_DATA_DIR: dataDir,
      STACKHOOKS_OBSERVER_PORT: observerPort,
    });
    const receiver = spawn(
      process.execPath,
      [...CLI_FROM_SOURCE, 'receive', '--port', String(receiverPort)],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let printed = '';
    receiver.stdout.on('data', (c: Buffer) => (printed += c.toString()));
    receiver.stderr.on('data', (c: Buffer) => (printed += c.toString()));
    try {
      const key = /\b(shk_[0-9a-f]{64})\b/.exec(server.output())![1];
      const definition = await readmeHookDefinition();
      (definition.action as { url: string }).url = `http://127.0.0.1:${receiverPort}/hooks`;
      const hook = await send(server.baseUrl, 'POST', '/chainhooks/v1/me', {
        key,
        body: JSON.stringify(definition),
      });
      expect(hook.status, JSON.stringify(hook.body)).to.equal(200);

      const file = join(dataDir, 'demo.tsv');
      expect((await runCli(['example-chain', file, '--blocks', '5'], {})).code).to.equal(0);
      const replay = await runCli(['replay', file, '--to', `http://127.0.0.1:${observerPort}`], {});
      expect(replay.code, replay.out).to.equal(0);

      const deadline = Date.now() + 30_000;
      while ((printed.match(/token_transfer/g) ?? []).length < 5 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect((printed.match(/token_transfer/g) ?? []).length, printed).to.be.at.least(5);
      expect(printed).to.include('stx transfers');
      // An attempt is recorded just after its webhook arrives, and a payload is listed once queued:
      // wait until all five are listed and delivered.
      const delivered = async () => {
        const log = await send(server.baseUrl, 'GET', `/chainhooks/v1/me/${hook.body.uuid}/deliveries`, {
          key,
        });
        return { total: log.body.total, states: log.body.results.map((r: { state: string }) => r.state) };
      };
      let seen = await delivered();
      const settled = () => seen.total >= 5 && seen.states.every((state: string) => state === 'delivered');
      while (!settled() && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        seen = await delivered();
      }
      expect(seen).to.deep.equal({ total: 5, states: Array(5).fill('delivered') });
    } finally {
      receiver.kill('SIGTERM');
      server.child.kill('SIGTERM');
      await server.exited;
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
