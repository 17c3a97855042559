import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import { TEST_API_KEY } from '../../support/api-server.js';
import { ChainBuilder, TEST_KEYS, addressOf, stxTransfer } from '../../support/block-builder.js';
import { sampleDefinition } from '../../support/definitions.js';
import { send } from '../../support/raw-http.js';
import { spawnServer, type ServerProcess } from '../../support/server-process.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { startTestReceiver, type TestReceiver } from '../../support/test-receiver.js';

type Line = Record<string, unknown> & { level: string; msg: string };

function lines(server: ServerProcess): Line[] {
  return server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Line);
}

async function until(server: ServerProcess, msg: string, count = 1): Promise<Line[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = lines(server).filter((line) => line.msg === msg);
    if (found.length >= count) return found;
    if (Date.now() > deadline) throw new Error(`no ${count}× "${msg}" in:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function postBlock(observerUrl: string, block: unknown): Promise<void> {
  const res = await fetch(`${observerUrl}/new_block`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(block),
  });
  expect(res.status).to.equal(200);
}

describe('the server log', function () {
  this.timeout(90_000);
  let dataDir: string;
  let server: ServerProcess | undefined;
  let receiver: TestReceiver;
  beforeEach(async () => {
    dataDir = await makeTempDir();
    receiver = await startTestReceiver();
  });
  afterEach(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    await receiver.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('tells processed blocks, a reorg, failed attempts and an interrupted hook, with no key or secret', async () => {
    receiver.reply(() => ({ status: 503 }));
    server = await spawnServer(
      {
        STACKHOOKS_DATA_DIR: dataDir,
        STACKHOOKS_API_KEY: TEST_API_KEY,
        STACKHOOKS_LOG_LEVEL: 'debug',
        STACKHOOKS_LOG_FORMAT: 'json',
        STACKHOOKS_RETRY_SCHEDULE: '0,10ms,10ms',
      },
      // The observer starts first: the API is the one to wait for before the requests below.
      '"msg":"api listening"',
    );
    const [observer] = await until(server, 'observer listening');
    const observerUrl = `http://127.0.0.1:${String(observer.port)}`;
    const api = server.baseUrl;
    // A wrong key, and the secret the deliveries are signed with: neither may reach the log.
    const wrongKey = 'wrong-key-5f0c9a7d1e2b3c4d';
    expect((await send(api, 'GET', '/chainhooks/v1/me', { key: wrongKey })).status).to.equal(401);
    const { secret } = (await send(api, 'POST', '/chainhooks/v1/me/secret', { key: TEST_API_KEY })).body;
    const registered = await send(api, 'POST', '/chainhooks/v1/me', {
      key: TEST_API_KEY,
      body: JSON.stringify(
        sampleDefinition({
          filters: { events: [{ type: 'stx_transfer' }] },
          action: { type: 'http_post', url: receiver.url('/hook') },
          options: { enable_on_registration: true },
        }),
      ),
    });
    expect(registered.status).to.equal(200);
    const hook: string = registered.body.uuid;

    const chain = new ChainBuilder();
    const transfer = await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: 5n });
    const b1 = chain.next({ transactions: [transfer] });
    const b2 = chain.next();
    const fork = chain.forkFrom(b1.index_block_hash);
    const side = [fork.next(), fork.next()];
    for (const block of [b1, b2, ...side]) await postBlock(observerUrl, block);

    const processed = await until(server, 'block processed', 4);
    expect(processed[0]).to.include({
      level: 'info',
      height: b1.block_height,
      hash: b1.index_block_hash,
      transactions: 1,
      hooks_matched: 1,
      payloads_queued: 1,
    });
    expect(processed[0].ms).to.be.a('number');
    const [reorg] = await until(server, 'chain reorganized');
    expect(reorg).to.include({
      level: 'info',
      depth: 1,
      rolled_back_from: b2.block_height,
      rolled_back_to: b2.block_height,
      new_tip_hash: side[0].index_block_hash,
    });

    const failed = await until(server, 'delivery attempt failed', 3);
    expect(failed.map((l) => [l.level, l.hook, l.status, l.attempt, l.of])).to.deep.equal([
      ['warn', hook, 503, 1, 3],
      ['warn', hook, 503, 2, 3],
      ['warn', hook, 503, 3, 3],
    ]);
    expect(failed[0].next_attempt_at).to.be.a('number');
    expect(failed[2]).to.include({ next_attempt_at: null, gave_up: true });
    const attempts = await until(server, 'delivery attempt', 3);
    expect(attempts.every((l) => l.level === 'debug' && l.payload === failed[0].payload)).to.equal(true);
    const [interrupted] = await until(server, 'hook interrupted');
    expect(interrupted).to.include({ level: 'warn', hook, payload: failed[0].payload });

    expect(receiver.received[0].headers['webhook-signature']).to.be.a('string');
    const output = server.output();
    for (const value of [TEST_API_KEY, wrongKey, secret]) expect(output).not.to.include(value);
  });
});
