import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import { sampleDefinition } from '../../support/definitions.js';
import { TEST_API_KEY } from '../../support/api-server.js';
import { ChainBuilder, TEST_KEYS, addressOf, stxTransfer } from '../../support/block-builder.js';
import { freePort, spawnServer } from '../../support/server-process.js';
import { send } from '../../support/raw-http.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { startTestReceiver } from '../../support/test-receiver.js';

const key = TEST_API_KEY;
const HOOKS = 50;
const BLOCKS = 20;

describe('delivery crash safety', function () {
  this.timeout(180_000);

  it('delivers all 1,000 payloads pending for 50 hooks after a SIGKILL, in chain order per hook', async () => {
    const receiver = await startTestReceiver();
    // Until the kill every delivery hangs, so all 1,000 payloads are still pending then.
    let hang = true;
    receiver.reply(() => (hang ? 'hang' : { status: 200 }));
    const dataDir = await makeTempDir();
    const observerPort = String(await freePort());
    const env = {
      STACKHOOKS_DATA_DIR: dataDir,
      STACKHOOKS_API_KEY: key,
      STACKHOOKS_OBSERVER_PORT: observerPort,
      STACKHOOKS_DELIVERY_TIMEOUT: '60s',
      // Every hook's first payload in flight at once, so all 50 hang until the kill.
      STACKHOOKS_DELIVERY_CONCURRENCY: '64',
      STACKHOOKS_RATE_LIMIT_PER_MINUTE: '100000',
    };
    const first = await spawnServer(env);
    const uuids: string[] = [];
    const chain = new ChainBuilder();
    const tx = await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: 1n });
    const blocks = Array.from({ length: BLOCKS }, () => chain.next({ transactions: [tx] }));
    try {
      for (let i = 0; i < HOOKS; i++) {
        const res = await send(first.baseUrl, 'POST', '/chainhooks/me', {
          key,
          body: JSON.stringify(
            sampleDefinition({
              name: `hook-${i}`,
              filters: { events: [{ type: 'stx_event' }] },
              action: { type: 'http_post', url: receiver.url(`/hook-${i}`) },
              options: { enable_on_registration: true },
            }),
          ),
        });
        uuids.push(res.body.uuid);
      }
      for (const block of blocks) {
        const res = await fetch(`http://127.0.0.1:${observerPort}/new_block`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(block),
        });
        expect(res.status).to.equal(200);
      }
      // Every block processed (its payloads durably queued) and each hook's first payload in flight.
      const deadline = Date.now() + 60_000;
      for (;;) {
        const pending = await send(
          first.baseUrl,
          'GET',
          `/chainhooks/me/${uuids.at(-1)}/deliveries?limit=60`,
          { key },
        );
        if (pending.body.total === BLOCKS && receiver.received.length >= HOOKS) break;
        if (Date.now() > deadline) throw new Error(`not queued in time: ${pending.body.total}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      first.child.kill('SIGKILL');
      await first.exited;
    }

    const beforeRestart = receiver.received.length;
    hang = false;
    const second = await spawnServer(env);
    try {
      await receiver.waitFor(beforeRestart + HOOKS * BLOCKS, 120_000);
      const firstSeen = new Map<string, { heights: number[]; ids: Map<number, string> }>();
      for (const request of receiver.received) {
        const body = JSON.parse(request.body);
        const height = body.event.apply[0].block_identifier.index as number;
        const hook = firstSeen.get(request.path) ?? {
          heights: [] as number[],
          ids: new Map<number, string>(),
        };
        const known = hook.ids.get(height);
        // A duplicate repeats the webhook-id of the first delivery of the same payload.
        if (known) expect(request.headers['webhook-id']).to.equal(known);
        else {
          hook.ids.set(height, String(request.headers['webhook-id']));
          hook.heights.push(height);
        }
        firstSeen.set(request.path, hook);
      }
      expect(firstSeen.size).to.equal(HOOKS);
      for (const [path, hook] of firstSeen) {
        expect(hook.heights, path).to.deep.equal(blocks.map((b) => b.block_height));
      }
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
      await receiver.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
