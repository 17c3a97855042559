import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { makeTempDir } from '../support/temp-dir.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SECRET = '5c'.repeat(32);

/** The first ```js block of a markdown file. */
async function firstJavaScriptBlock(path: string): Promise<string> {
  const text = await readFile(path, 'utf8');
  const match = /```js\n([\s\S]*?)```/.exec(text);
  if (!match) throw new Error(`no js block in ${path}`);
  return match[1];
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** POST, retrying while the example is still starting up. */
async function postWhenListening(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await fetch(url, { method: 'POST', headers, body });
      return res.status;
    } catch (err) {
      if (attempt > 100) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

describe('docs/receiving.md', function () {
  this.timeout(30_000);

  it('runs its plain-Node receiver: a signed delivery is verified, a wrongly signed one gets 401', async () => {
    const code = await firstJavaScriptBlock(join(ROOT, 'docs/receiving.md'));
    const dir = await makeTempDir();
    const file = join(dir, 'receiver.mjs');
    await writeFile(file, code);
    const port = await freePort();
    const child = spawn(process.execPath, [file], {
      cwd: dir,
      env: { ...process.env, STACKHOOKS_SECRET: SECRET, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    try {
      const url = `http://127.0.0.1:${port}/`;
      const body = JSON.stringify({ chainhook: { uuid: 'u-1', name: 'doc-hook' }, event: { apply: [] } });
      const ts = String(Math.floor(Date.now() / 1000));
      const mac = createHmac('sha256', Buffer.from(SECRET, 'hex'))
        .update(`msg-1.${ts}.${body}`)
        .digest('base64');
      const signed = { 'content-type': 'application/json', 'webhook-id': 'msg-1', 'webhook-timestamp': ts };

      expect(await postWhenListening(url, { ...signed, 'webhook-signature': `v1,${mac}` }, body)).to.equal(
        200,
      );
      const tampered = body.replace('doc-hook', 'evil-hook');
      expect(
        await postWhenListening(url, { ...signed, 'webhook-signature': `v1,${mac}` }, tampered),
      ).to.equal(401);

      // The example prints before it answers, but its stdout may reach us after the answer.
      for (let waited = 0; out.trim().split('\n').length < 2 && waited < 5000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const lines = out
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines[0]).to.include({ verified: true, id: 'msg-1' });
      expect(lines[1]).to.deep.equal({ verified: false });
      expect(lines).to.have.length(2);
    } finally {
      child.kill();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
