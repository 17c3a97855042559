import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import { TEST_API_KEY } from '../../support/api-server.js';
import { ChainBuilder, TEST_KEYS, addressOf, stxTransfer } from '../../support/block-builder.js';
import { sampleDefinition } from '../../support/definitions.js';
import { dropSchema, freshSchemaUrl, postgresAvailable } from '../../support/postgres.js';
import { send } from '../../support/raw-http.js';
import { freePort, postNewBlocks, spawnServer, type ServerProcess } from '../../support/server-process.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { startTestReceiver, type Received } from '../../support/test-receiver.js';

const key = TEST_API_KEY;
const BLOCKS = 400;
/** The receiver takes this many payloads, then holds every later one until the kill. */
const TAKEN_BEFORE_KILL = 40;

const heightOf = (request: Received): number =>
  JSON.parse(request.body).event.apply[0].block_identifier.index as number;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function backfillRecord(server: ServerProcess, hook: string, id: string): Promise<any> {
  const res = await send(server.baseUrl, 'GET', `/chainhooks/v1/me/${hook}/backfills/${id}`, { key });
  expect(res.status).to.equal(200);
  return res.body;
}

const available = await postgresAvailable();

/**
 * Kill the server (SIGKILL) mid-scan, with the receiver holding a payload, then restart it on the
 * same stores (`databaseUrl`: PostgreSQL, else the data folder's) and check the backfill goes on.
 */
async function killMidScanAndRestart(databaseUrl?: string): Promise<void> {
  const receiver = await startTestReceiver();
  let hold = true;
  receiver.reply((_, index) => (hold && index >= TAKEN_BEFORE_KILL ? 'hang' : { status: 200 }));
  const dataDir = await makeTempDir();
  const observerPort = String(await freePort());
  const env = {
    STACKHOOKS_DATA_DIR: dataDir,
    STACKHOOKS_API_KEY: key,
    STACKHOOKS_OBSERVER_PORT: observerPort,
    STACKHOOKS_DELIVERY_TIMEOUT: '120s',
    STACKHOOKS_RATE_LIMIT_PER_MINUTE: '100000',
    // On PostgreSQL the payload held at the kill stays leased to the killed server this long before
    // the restarted one takes it over (60 s by default).
    STACKHOOKS_DELIVERY_LEASE: '3s',
    ...(databaseUrl && { STACKHOOKS_DATABASE_URL: databaseUrl }),
  };
  const chain = new ChainBuilder({ label: 'backfill-crash' });
  const transfer = await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: 1n });
  // Every other block carries a transfer: the hook matches the even heights.
  const blocks = Array.from({ length: BLOCKS }, (_, i) =>
    chain.next({ transactions: i % 2 ? [transfer] : [] }),
  );
  const matching = blocks.filter((b) => b.transactions.length > 0).map((b) => b.block_height);
  const first = await spawnServer(env);
  let hook: string;
  let id: string;
  let stored: { next_block_height: number; blocks_scanned: number };
  try {
    await postNewBlocks(observerPort, blocks);
    const tip = blocks.at(-1)!.block_height;
    for (;;) {
      const status = await send(first.baseUrl, 'GET', '/chainhooks/v1');
      if (status.body.chain_tip?.block_height === tip) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const definition = sampleDefinition({
      filters: { events: [{ type: 'stx_transfer' }] },
      action: { type: 'http_post', url: receiver.url('/hook') },
    });
    hook = (await send(first.baseUrl, 'POST', '/chainhooks/v1/me', { key, body: JSON.stringify(definition) }))
      .body.uuid;
    const created = await send(first.baseUrl, 'POST', `/chainhooks/v1/me/${hook}/backfills`, {
      key,
      body: JSON.stringify({ from_block_height: blocks[0].block_height, to_block_height: tip }),
    });
    expect(created.status).to.equal(202);
    id = created.body.id;
    // Killed once the stored progress is past what the receiver took, with the scan waiting on it.
    for (;;) {
      const record = await backfillRecord(first, hook, id);
      if (
        record.state === 'running' &&
        record.payloads_delivered >= TAKEN_BEFORE_KILL &&
        record.blocks_scanned > 0
      ) {
        const after = matching[TAKEN_BEFORE_KILL];
        if (record.next_block_height > after) {
          stored = record;
          break;
        }
      }
      expect(record.state, 'the backfill is still going when the kill comes').to.be.oneOf([
        'queued',
        'running',
      ]);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    first.child.kill('SIGKILL');
    await first.exited;
  }
  const beforeKill = receiver.received.map(heightOf);
  const acknowledged = new Set(beforeKill.slice(0, TAKEN_BEFORE_KILL));
  expect(stored.next_block_height).to.be.lessThan(blocks.at(-1)!.block_height);

  hold = false;
  const restarted = receiver.received.length;
  const second = await spawnServer(env);
  try {
    let done;
    for (;;) {
      done = await backfillRecord(second, hook, id);
      if (!['queued', 'running'].includes(done.state)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(done).to.include({
      state: 'done',
      blocks_scanned: BLOCKS,
      blocks_matched: matching.length,
      payloads_failed: 0,
    });
    const afterRestart = receiver.received.slice(restarted);
    for (const request of receiver.received) expect(request.headers['stackhooks-backfill-id']).to.equal(id);
    const heightsAfter = afterRestart.map(heightOf);
    // Each run delivers in ascending height; the second does not start over from the range's start.
    expect(beforeKill).to.deep.equal([...beforeKill].sort((a, b) => a - b));
    expect(heightsAfter).to.deep.equal([...heightsAfter].sort((a, b) => a - b));
    expect(heightsAfter.filter((h) => acknowledged.has(h))).to.deep.equal([]);
    expect(heightsAfter[0], 'the first block the receiver had not taken').to.equal(
      matching[TAKEN_BEFORE_KILL],
    );
    // At least once: every matching height arrived, and first arrivals are in height order.
    const firstSeen = [...new Set([...beforeKill, ...heightsAfter])];
    expect(firstSeen).to.deep.equal(matching);
  } finally {
    second.child.kill('SIGTERM');
    await second.exited;
    await receiver.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const WHAT =
  'goes on after a restart where its stored progress stopped and delivers every matching block at least once, in order';

describe('backfill across a SIGKILL', function () {
  this.timeout(240_000);

  it(WHAT, () => killMidScanAndRestart());
});

if (!available) {
  describe('backfill across a SIGKILL on PostgreSQL', () => {
    it('is skipped because PostgreSQL is not reachable (set STACKHOOKS_TEST_DATABASE_URL)');
  });
}

(available ? describe : () => undefined)(
  'backfill across a SIGKILL on PostgreSQL',
  function (this: Mocha.Suite) {
    this.timeout(240_000);

    it(WHAT, async () => {
      const url = freshSchemaUrl('bfkill');
      try {
        await killMidScanAndRestart(url);
      } finally {
        await dropSchema(url);
      }
    });
  },
);
