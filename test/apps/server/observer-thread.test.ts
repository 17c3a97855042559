import { spawn } from 'node:child_process';
import { expect } from 'chai';
import { startTestServer, untilIngested, type TestServer } from '../../support/api-server.js';
import { ChainBuilder } from '../../support/block-builder.js';
import { dropSchema, freshSchemaUrl, postgresAvailable } from '../../support/postgres.js';
import { send } from '../../support/raw-http.js';

// A client in another process: it says when it is about to post, posts after `delayMs`, and tells
// the time its 200 came. This thread cannot answer or post while it is kept busy.
const POSTER = `
const [url, body, delayMs] = process.argv.slice(1);
console.log('ready');
setTimeout(async () => {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  console.log('answered', res.status, Date.now());
}, Number(delayMs));
`;

/** Post `body` from another process while this thread is busy for `busyMs`; when the 200 came and when the busy spell ended. */
async function postWhileBusy(
  url: string,
  body: string,
  busyMs: number,
): Promise<{ status: number; answeredAt: number; busyUntil: number }> {
  const child = spawn(process.execPath, ['-e', POSTER, url, body, '200'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve) =>
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('ready')) resolve();
    }),
  );
  const until = Date.now() + busyMs;
  while (Date.now() < until) {
    // Busy, as a long step of block processing would keep it.
  }
  const busyUntil = Date.now();
  await exited;
  const answer = /answered (\d+) (\d+)/.exec(output);
  if (!answer) throw new Error(`the poster did not get an answer:\n${output}`);
  return { status: Number(answer[1]), answeredAt: Number(answer[2]), busyUntil };
}

function describeStore(name: string, env: () => Record<string, string>, after: () => Promise<void>) {
  describe(`the observer in its own thread (${name})`, function () {
    this.timeout(60_000);
    let t: TestServer;
    beforeEach(async () => {
      t = await startTestServer(env());
    });
    afterEach(async () => {
      await t.stop();
      await after();
    });

    it('answers the node with a 200 while the instance thread is busy, and the block is processed after', async () => {
      const block = new ChainBuilder().next();
      const posted = await postWhileBusy(`${t.observerUrl}/new_block`, JSON.stringify(block), 3_000);
      expect(posted.status).to.equal(200);
      expect(posted.answeredAt, 'the 200 came while this thread was busy').to.be.below(posted.busyUntil);
      await untilIngested(t);
      const status = await send(t.baseUrl, 'GET', '/chainhooks/v1');
      expect(status.body.chain_tip.index_block_hash).to.equal(block.index_block_hash);
    });

    it('counts an entry in the instance event log by the time the node has its 200', async () => {
      const res = await fetch(`${t.observerUrl}/new_block`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(new ChainBuilder().next()),
      });
      const { id } = (await res.json()) as { id: number };
      expect(t.server.stackhooks.eventLog.lastId()).to.be.at.least(id);
    });
  });
}

describeStore(
  'embedded',
  () => ({}),
  async () => undefined,
);

const available = await postgresAvailable();
let url = '';
(available ? describeStore : () => undefined)(
  'PostgreSQL',
  () => {
    url = freshSchemaUrl('thread');
    return { STACKHOOKS_DATABASE_URL: url };
  },
  () => dropSchema(url),
);
