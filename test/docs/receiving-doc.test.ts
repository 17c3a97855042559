import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { writeExampleChain } from '../../apps/cli/example-chain.js';
import { runReplay } from '../../apps/cli/replay-command.js';
import { startTestServer, type TestServer } from '../support/api-server.js';
import { sampleDefinition } from '../support/definitions.js';
import { codeBlocks } from '../support/markdown.js';
import { freePort } from '../support/server-process.js';
import { makeTempDir } from '../support/temp-dir.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGE = join(ROOT, 'docs/receiving.md');

/** The page's receivers: the one on the reference library, and the one on plain Node. */
async function pageReceivers(): Promise<{ library: string; plain: string }> {
  const blocks = await codeBlocks(PAGE, 'js');
  const library = blocks.find((code) => code.includes("from 'standardwebhooks'"));
  const plain = blocks.find((code) => code.includes("from 'node:crypto'"));
  if (!library || !plain) throw new Error('docs/receiving.md lost one of its receivers');
  return { library, plain };
}

/** One of the page's receivers, running as its own process with the secret the page says to give it. */
type RunningReceiver = { url: string; lines(): Record<string, unknown>[]; stop(): void };

async function runReceiver(code: string, secret: string): Promise<RunningReceiver> {
  // Inside the project, so that the receiver's imports of standardwebhooks and svix resolve.
  const dir = join(ROOT, '.tmp');
  await mkdir(dir, { recursive: true });
  const file = join(dir, `receiver-${process.pid}-${Math.random().toString(36).slice(2)}.mjs`);
  await writeFile(file, code);
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [file], {
    cwd: dir,
    env: { ...process.env, STACKHOOKS_SECRET: secret, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const url = `http://127.0.0.1:${port}/hooks`;
  // Wait until it listens: a GET is not a delivery, and the receiver answers it 401 without printing.
  for (let attempt = 0; ; attempt++) {
    try {
      await fetch(url);
      break;
    } catch (err) {
      if (attempt > 200 || child.exitCode !== null)
        throw new Error(`receiver did not start: ${out}`, { cause: err });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    url,
    lines: () =>
      out
        .trim()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    stop: () => {
      child.kill();
      void rm(file, { force: true });
    },
  };
}

describe('docs/receiving.md', function () {
  this.timeout(60_000);

  it('runs its plain-Node receiver: a signed delivery is verified, a wrongly signed one gets 401', async () => {
    const bytes = Buffer.alloc(32, 0x5c);
    const receiver = await runReceiver((await pageReceivers()).plain, `whsec_${bytes.toString('base64')}`);
    try {
      const body = JSON.stringify({ chainhook: { uuid: 'u-1', name: 'doc-hook' }, event: { apply: [] } });
      const ts = String(Math.floor(Date.now() / 1000));
      const mac = createHmac('sha256', bytes).update(`msg-1.${ts}.${body}`).digest('base64');
      const headers = {
        'content-type': 'application/json',
        'webhook-id': 'msg-1',
        'webhook-timestamp': ts,
        'webhook-signature': `v1,${mac}`,
      };
      const post = (text: string) => fetch(receiver.url, { method: 'POST', headers, body: text });
      expect((await post(body)).status).to.equal(200);
      expect((await post(body.replace('doc-hook', 'evil-hook'))).status).to.equal(401);
      // The example prints before it answers, but its stdout may reach us after the answer.
      for (let waited = 0; receiver.lines().length < 3 && waited < 5000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // The first line is the GET that found it listening.
      expect(receiver.lines().slice(1)).to.deep.equal([
        { verified: true, id: 'msg-1', hook: 'doc-hook' },
        { verified: false },
      ]);
    } finally {
      receiver.stop();
    }
  });

  it('verifies real deliveries with standardwebhooks, svix and plain Node, keyed with standard_webhooks_secret', async () => {
    let server: TestServer | undefined;
    const receivers: RunningReceiver[] = [];
    const dir = await makeTempDir();
    try {
      server = await startTestServer();
      const rotated = (await server.client.rotateConsumerSecret()) as unknown as {
        standard_webhooks_secret: string;
      };
      const secret = rotated.standard_webhooks_secret;
      const { library, plain } = await pageReceivers();
      // svix as the page says: its Webhook in place of the reference library's, nothing else changed.
      const svix = library.replace(
        "import { Webhook } from 'standardwebhooks';",
        "import { Webhook } from 'svix';",
      );
      expect(svix).to.not.equal(library);
      const names = ['standardwebhooks', 'svix', 'plain node'];
      for (const code of [library, svix, plain]) receivers.push(await runReceiver(code, secret));
      for (const [i, receiver] of receivers.entries()) {
        await server.client.registerChainhook(
          sampleDefinition({
            name: names[i],
            filters: { events: [{ type: 'stx_transfer' }] },
            action: { type: 'http_post', url: receiver.url },
            options: { enable_on_registration: true },
          }),
        );
      }
      const chain = join(dir, 'chain.tsv');
      await writeExampleChain(chain, 2, 'mainnet');
      await runReplay(chain, { to: server.observerUrl, rate: 0 });

      const verified = (receiver: RunningReceiver) =>
        receiver.lines().filter((line) => line.verified === true);
      for (let waited = 0; receivers.some((r) => verified(r).length < 2) && waited < 30_000; waited += 100) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      for (const [i, receiver] of receivers.entries()) {
        // Only the GET that found it listening was refused; both deliveries were verified.
        expect(receiver.lines().slice(1), names[i]).to.deep.equal(
          verified(receiver).map((line) => ({ verified: true, id: line.id, hook: names[i] })),
        );
        expect(verified(receiver), names[i]).to.have.length(2);
      }
    } finally {
      for (const receiver of receivers) receiver.stop();
      await server?.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
