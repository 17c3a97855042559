import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import type { NodeBlock } from '../../../core/stacks-codec/node-block.js';
import { sampleDefinition } from '../../support/definitions.js';
import { TEST_API_KEY } from '../../support/api-server.js';
import { ChainBuilder, TEST_KEYS, addressOf, stxTransfer } from '../../support/block-builder.js';
import { dropSchema, freshSchemaUrl, postgresAvailable } from '../../support/postgres.js';
import { freePort, metricsUrl, spawnServer, type ServerProcess } from '../../support/server-process.js';
import { parseExposition, sample } from '../../support/prometheus-text.js';
import { send } from '../../support/raw-http.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { startTestReceiver } from '../../support/test-receiver.js';

const key = TEST_API_KEY;
const available = await postgresAvailable();

async function postBlocks(observerPort: string, blocks: NodeBlock[]): Promise<void> {
  for (const block of blocks) {
    const res = await fetch(`http://127.0.0.1:${observerPort}/new_block`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(block),
    });
    expect(res.status).to.equal(200);
  }
}

async function buildChain(count: number): Promise<NodeBlock[]> {
  const chain = new ChainBuilder();
  const tx = await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: 1n });
  return Array.from({ length: count }, () => chain.next({ transactions: [tx] }));
}

async function stopAll(processes: ServerProcess[]): Promise<void> {
  for (const p of processes) if (p.child.exitCode === null) p.child.kill('SIGTERM');
  await Promise.all(processes.map((p) => p.exited));
}

if (!available) {
  describe('many processes on one PostgreSQL', () => {
    it('is skipped because PostgreSQL is not reachable (set STACKHOOKS_TEST_DATABASE_URL)');
  });
}

(available ? describe : () => undefined)('many processes on one PostgreSQL', function (this: Mocha.Suite) {
  this.timeout(300_000);

  it('delivers every payload in chain order per hook across 1 ingest, 2 workers and 2 APIs, through a worker SIGKILL', async () => {
    const url = freshSchemaUrl('mp');
    const dataDir = await makeTempDir();
    const receiver = await startTestReceiver();
    const observerPort = String(await freePort());
    const common = {
      STACKHOOKS_DATABASE_URL: url,
      STACKHOOKS_DATA_DIR: dataDir,
      STACKHOOKS_API_KEY: key,
      STACKHOOKS_RATE_LIMIT_PER_MINUTE: '1000000',
      STACKHOOKS_MAX_HOOKS_PER_OWNER: '100000',
      STACKHOOKS_DELIVERY_LEASE: '3s',
      STACKHOOKS_DELIVERY_TIMEOUT: '2s',
    };
    const processes: ServerProcess[] = [];
    try {
      const apiA = await spawnServer({ ...common, ROLE: 'api' });
      processes.push(apiA);
      const apiB = await spawnServer({ ...common, ROLE: 'api' });
      processes.push(apiB);
      const ingest = await spawnServer(
        { ...common, ROLE: 'ingest', STACKHOOKS_OBSERVER_PORT: observerPort },
        '"msg":"block processing active"',
      );
      processes.push(ingest);
      const workers = [
        await spawnServer({ ...common, ROLE: 'worker' }, '"msg":"delivery started"'),
        await spawnServer({ ...common, ROLE: 'worker' }, '"msg":"delivery started"'),
      ];
      processes.push(...workers);

      // 500 hooks through both APIs; 20 of them match every block, the rest never match.
      const matching: string[] = [];
      for (let i = 0; i < 500; i++) {
        const api = i % 2 === 0 ? apiA : apiB;
        const matches = i % 25 === 0;
        const res = await send(api.baseUrl, 'POST', '/chainhooks/me', {
          key,
          body: JSON.stringify(
            sampleDefinition({
              name: `hook-${i}`,
              filters: { events: [matches ? { type: 'stx_event' } : { type: 'nft_burn' }] },
              action: { type: 'http_post', url: receiver.url(`/hook-${i}`) },
              options: { enable_on_registration: true },
            }),
          ),
        });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        if (matches) matching.push(`/hook-${i}`);
      }
      const blocks = await buildChain(300);
      await postBlocks(observerPort, blocks.slice(0, 150));
      // Kill a worker while it holds leases.
      await receiver.waitFor(500, 120_000);
      workers[0].child.kill('SIGKILL');
      await postBlocks(observerPort, blocks.slice(150));
      const expected = matching.length * blocks.length;
      const deadline = Date.now() + 180_000;
      const firsts = () => new Set(receiver.received.map((r) => `${r.path}|${r.headers['webhook-id']}`)).size;
      while (firsts() < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
      expect(firsts()).to.equal(expected);

      const heightsByHook = new Map<string, number[]>();
      const idOf = new Map<string, string>();
      for (const request of receiver.received) {
        const height = JSON.parse(request.body).event.apply[0].block_identifier.index as number;
        const seen = `${request.path}|${height}`;
        const id = String(request.headers['webhook-id']);
        if (idOf.has(seen)) {
          expect(idOf.get(seen), 'a duplicate repeats its webhook-id').to.equal(id);
          continue;
        }
        idOf.set(seen, id);
        heightsByHook.set(request.path, [...(heightsByHook.get(request.path) ?? []), height]);
      }
      expect([...heightsByHook.keys()].sort()).to.deep.equal([...matching].sort());
      for (const [path, heights] of heightsByHook) {
        expect(heights, path).to.deep.equal(blocks.map((b) => b.block_height));
      }

      // Each role's process exposes its own figures, and the shared ones alike.
      const scrape = async (p: ServerProcess) =>
        parseExposition(await (await fetch(`${metricsUrl(p)}/metrics`)).text());
      const tip = blocks.at(-1)!.block_height;
      const fromIngest = await scrape(ingest);
      expect(sample(fromIngest, 'stackhooks_role', { role: 'ingest' })).to.equal(1);
      expect(sample(fromIngest, 'stackhooks_blocks_received_total')).to.equal(blocks.length);
      expect(sample(fromIngest, 'stackhooks_blocks_processed_total')).to.equal(blocks.length);
      expect(sample(fromIngest, 'stackhooks_payloads_queued_total')).to.equal(expected);
      expect(sample(fromIngest, 'stackhooks_ingest_active')).to.equal(1);
      const fromApi = await scrape(apiA);
      expect(sample(fromApi, 'stackhooks_role', { role: 'api' })).to.equal(1);
      expect(sample(fromApi, 'stackhooks_chain_tip_height')).to.equal(tip);
      expect(
        sample(fromApi, 'stackhooks_http_request_duration_seconds_count', {
          method: 'POST',
          route: '/chainhooks/me',
          status: '200',
        }),
      ).to.equal(250);
      const fromWorker = await scrape(workers[1]);
      expect(sample(fromWorker, 'stackhooks_role', { role: 'worker' })).to.equal(1);
      expect(sample(fromWorker, 'stackhooks_chain_tip_height')).to.equal(tip);
      expect(
        sample(fromWorker, 'stackhooks_delivery_attempts_total', {
          outcome: 'delivered',
          status_class: '2xx',
        }),
      ).to.be.greaterThan(0);
      // Blocks go to the ingest process only; a worker counts none of them.
      expect(sample(fromWorker, 'stackhooks_blocks_received_total')).to.equal(0);
    } finally {
      await stopAll(processes);
      await receiver.close();
      await dropSchema(url);
    }
  });

  it('runs one ingest at a time; when it is killed the other takes over without a lost or doubled block', async () => {
    const url = freshSchemaUrl('ing');
    const dataDir = await makeTempDir();
    const portA = String(await freePort());
    const portB = String(await freePort());
    const common = { STACKHOOKS_DATABASE_URL: url, STACKHOOKS_DATA_DIR: dataDir, STACKHOOKS_API_KEY: key };
    const processes: ServerProcess[] = [];
    try {
      const api = await spawnServer({ ...common, ROLE: 'api' });
      processes.push(api);
      // A hook every block matches (no worker runs, so nothing is sent): its counters show each
      // block counted once across the takeover.
      const registered = await send(api.baseUrl, 'POST', '/chainhooks/me', {
        key,
        body: JSON.stringify(
          sampleDefinition({
            filters: { events: [{ type: 'stx_event' }] },
            action: { type: 'http_post', url: 'https://example.com/hooks' },
            options: { enable_on_registration: true },
          }),
        ),
      });
      expect(registered.status, JSON.stringify(registered.body)).to.equal(200);
      const first = await spawnServer(
        { ...common, ROLE: 'ingest', STACKHOOKS_OBSERVER_PORT: portA },
        '"msg":"block processing active"',
      );
      processes.push(first);
      const second = await spawnServer(
        { ...common, ROLE: 'ingest', STACKHOOKS_OBSERVER_PORT: portB },
        '"msg":"observer listening"',
      );
      processes.push(second);
      // Its observer starting and its first try for the lock race each other: wait for both lines.
      for (const deadline = Date.now() + 20_000; Date.now() < deadline; await sleep(50))
        if (second.output().includes('waiting for its lock')) break;
      expect(second.output()).to.include('waiting for its lock');
      expect(second.output()).to.not.include('block processing active');

      const blocks = await buildChain(100);
      await postBlocks(portA, blocks.slice(0, 50));
      first.child.kill('SIGKILL');
      await first.exited;
      // The node retries against the standby, which stores every post while waiting.
      await postBlocks(portB, blocks.slice(50));
      const deadline = Date.now() + 60_000;
      let status = (await send(api.baseUrl, 'GET', '/chainhooks/v1')).body;
      // Archived first, counted and marked processed after: wait for the mark too.
      while ((status.archived_blocks < 100 || status.ingest.entries_behind > 0) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        status = (await send(api.baseUrl, 'GET', '/chainhooks/v1')).body;
      }
      expect(second.output()).to.include('block processing active');
      // Should a block be missing, what both ingest processes logged and the whole status tell where.
      const story = `status ${JSON.stringify(status)}\nfirst:\n${first.output().slice(-4000)}\nsecond:\n${second.output().slice(-8000)}`;
      // A block the archive could not take is quarantined and leaves a gap: say so before the count.
      expect(status.chain.quarantined_bodies, story).to.equal(0);
      expect(status.chain.open_gaps, story).to.equal(0);
      expect(status.archived_blocks, story).to.equal(100);
      expect(status.chain_tip.block_height).to.equal(blocks[99].block_height);
      const hook = (await send(api.baseUrl, 'GET', `/chainhooks/me/${registered.body.uuid}`, { key })).body;
      expect(hook.status.evaluated_block_count, story).to.equal(100);
      expect(hook.status.occurrence_count, story).to.equal(100);
    } finally {
      await stopAll(processes);
      await dropSchema(url);
    }
  });
});
