import { spawn, spawnSync } from 'node:child_process';
import { mkdir, rm, statfs, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { TEST_API_KEY } from '../../support/api-server.js';
import {
  ChainBuilder,
  TEST_KEYS,
  addressOf,
  stxTransfer,
  type NodeBlock,
} from '../../support/block-builder.js';
import { sampleDefinition } from '../../support/definitions.js';
import { send } from '../../support/raw-http.js';
import { CLI_FROM_SOURCE, freePort } from '../../support/server-process.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { startTestReceiver } from '../../support/test-receiver.js';
import { skipBecause } from '../../support/skip-because.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const key = TEST_API_KEY;
const TMPFS = '8m';

/** Why a private tmpfs cannot be mounted here (not root, no mount namespaces), or undefined when it can. */
function whyNoPrivateTmpfs(probe: string): string | undefined {
  if (process.getuid?.() !== 0) return 'needs root to mount a tmpfs in a private mount namespace';
  const run = spawnSync('unshare', ['-m', 'sh', '-c', 'mount -t tmpfs -o size=1m tmpfs "$0"', probe]);
  if (run.error) return `unshare is not available (${run.error.message})`;
  if (run.status !== 0)
    return `cannot mount a tmpfs in a private mount namespace: ${run.stderr.toString().trim()}`;
  return undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function postBlock(observerPort: string, block: NodeBlock): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${observerPort}/new_block`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(block),
  }).catch(() => undefined);
  await res?.arrayBuffer();
  return res?.status ?? 0;
}

describe('a full disk', function () {
  this.timeout(180_000);
  let base: string;
  before(async function () {
    base = await makeTempDir('stackhooks-full-disk-');
    await mkdir(join(base, 'probe'));
    const reason = whyNoPrivateTmpfs(join(base, 'probe'));
    if (reason) {
      skipBecause(this, reason);
    }
  });
  after(async () => base && rm(base, { recursive: true, force: true }));

  it('pauses while the disk is full and, once space is freed, archives and delivers every block that got a 200, with no restart', async () => {
    const receiver = await startTestReceiver();
    const dataDir = join(base, 'data');
    await mkdir(dataDir);
    const port = String(await freePort());
    const observerPort = String(await freePort());
    // The server runs in a mount namespace of its own, with its data folder on a small tmpfs; the
    // test reaches that tmpfs through the server's /proc/<pid>/root.
    const child = spawn(
      'unshare',
      [
        '-m',
        'sh',
        '-c',
        `mount -t tmpfs -o size=${TMPFS} tmpfs "$0" && exec "$@"`,
        dataDir,
        process.execPath,
      ].concat([...CLI_FROM_SOURCE, 'serve']),
      {
        cwd: ROOT,
        env: {
          ...process.env,
          STACKHOOKS_DATA_DIR: dataDir,
          STACKHOOKS_API_KEY: key,
          STACKHOOKS_HOST: '127.0.0.1',
          STACKHOOKS_PORT: port,
          STACKHOOKS_OBSERVER_PORT: observerPort,
          STACKHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const baseUrl = `http://127.0.0.1:${port}`;
    const status = async () => (await send(baseUrl, 'GET', '/chainhooks/v1')).body;
    try {
      for (let waited = 0; ; waited += 100) {
        if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
        if (
          await fetch(`${baseUrl}/chainhooks/v1`).then(
            (r) => r.ok,
            () => false,
          )
        )
          break;
        if (waited > 45_000) throw new Error(`server did not start:\n${output}`);
        await sleep(100);
      }
      const tmpfs = `/proc/${child.pid}/root${dataDir}`;
      const hook = await send(baseUrl, 'POST', '/chainhooks/me', {
        key,
        body: JSON.stringify(
          sampleDefinition({
            filters: { events: [{ type: 'stx_event' }] },
            action: { type: 'http_post', url: receiver.url('/blocks') },
            options: { enable_on_registration: true },
          }),
        ),
      });
      expect(hook.status).to.equal(200);

      // Fill the disk but for a little room, then post blocks until the observer refuses one.
      const free = await statfs(tmpfs);
      const filler = join(tmpfs, 'filler');
      await writeFile(filler, Buffer.alloc(Math.max(0, free.bavail * free.bsize - 160 * 1024)));
      const chain = new ChainBuilder();
      const tx = await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: 1n });
      const blocks = Array.from({ length: 400 }, () => chain.next({ transactions: [tx] }));
      let next = 0;
      const acked: NodeBlock[] = [];
      let refusal = 200;
      for (; next < blocks.length; next++) {
        refusal = await postBlock(observerPort, blocks[next]);
        if (refusal !== 200) break;
        acked.push(blocks[next]);
      }
      expect(refusal, 'the observer refuses a block while the disk is full').to.equal(503);
      const full = await status();
      expect(full.conditions.map((c: { name: string }) => c.name)).to.include('storage_full');
      // What room a block could not use may still take a registration's journal line, even in the
      // slack of the journal's last page: the room is taken, and the registration outgrows a page.
      const rest = await statfs(tmpfs);
      const fillerRest = join(tmpfs, 'filler-rest');
      await writeFile(fillerRest, Buffer.alloc(rest.bavail * rest.bsize)).catch(() => undefined);
      const manyFilters = Array.from({ length: 150 }, (_, n) => ({
        type: 'contract_call' as const,
        contract_identifier: `SP000000000000000000002Q6VF78.contract-${n}`,
      }));
      const refusedChange = await send(baseUrl, 'POST', '/chainhooks/me', {
        key,
        body: JSON.stringify(sampleDefinition({ name: 'while full', filters: { events: manyFilters } })),
      });
      expect(refusedChange.status, 'an API change while the disk is full').to.equal(503);
      expect(refusedChange.headers['retry-after']).to.match(/^\d+$/);

      // Space comes back: the node posts the refused block again, then the next ones.
      await rm(filler);
      await rm(fillerRest, { force: true });
      for (const block of blocks.slice(next, next + 20)) {
        expect(await postBlock(observerPort, block)).to.equal(200);
        acked.push(block);
      }
      const hashes = new Set(acked.map((b) => b.index_block_hash));
      const delivered = new Set<string>();
      for (let waited = 0; ; waited += 200) {
        for (const request of receiver.received.splice(0)) {
          for (const applied of JSON.parse(request.body).event.apply)
            delivered.add(applied.block_identifier.hash);
        }
        const now = await status();
        const done = now.archived_blocks === acked.length && [...hashes].every((h) => delivered.has(h));
        if (done && now.conditions.length === 0) break;
        if (waited > 90_000) {
          throw new Error(
            `not caught up: ${JSON.stringify(now)}, ${delivered.size} of ${hashes.size} delivered`,
          );
        }
        await sleep(200);
      }
      expect(child.exitCode, 'the same server process all along').to.equal(null);
      expect(output).to.include('disk full');
      expect(output).to.include('disk space is back');
    } finally {
      child.kill('SIGTERM');
      await exited;
      await receiver.close();
    }
  });
});
