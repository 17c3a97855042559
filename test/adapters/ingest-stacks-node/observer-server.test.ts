import type { Server } from 'node:http';
import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import { FsEventLog } from '../../../adapters/event-log-fs/index.js';
import { createObserverServer, listenObserver } from '../../../adapters/ingest-stacks-node/index.js';
import { silentLogger } from '../../../adapters/system/index.js';
import { makeTempDir } from '../../support/temp-dir.js';

describe('the event observer endpoint', () => {
  let dir: string;
  let log: FsEventLog;
  let server: Server;
  let base: string;
  let woken: number[];

  beforeEach(async () => {
    dir = await makeTempDir('stackhooks-observer-');
    log = await FsEventLog.open(dir);
    woken = [];
    server = createObserverServer({
      log,
      logger: silentLogger,
      onAppended: (id) => woken.push(id),
      now: () => 42,
    });
    base = `http://127.0.0.1:${await listenObserver(server, 0, '127.0.0.1')}`;
  });
  afterEach(async () => {
    await new Promise((r) => server.close(r));
    await log.close();
    await rm(dir, { recursive: true, force: true });
  });

  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });

  for (const path of [
    '/new_block',
    '/new_burn_block',
    '/new_microblocks',
    '/new_mempool_tx',
    '/drop_mempool_tx',
    '/attachments/new',
    '/stackerdb_chunks',
    '/proposal_response',
    '/some_future_path',
  ]) {
    it(`stores a POST to ${path} before answering 200`, async () => {
      const res = await post(path, '{"x":1}');
      expect(res.status).to.equal(200);
      expect(await log.readAfter(0, 10)).to.deep.equal([{ id: 1, received_at: 42, path, body: '{"x":1}' }]);
      expect(woken).to.deep.equal([1]);
    });
  }

  it('answers malformed JSON with a 400 and stores nothing', async () => {
    const res = await post('/new_block', '{"block_hash": ');
    expect(res.status).to.equal(400);
    expect(((await res.json()) as { message: string }).message).to.include('not valid JSON');
    expect(log.lastId()).to.equal(0);
  });

  it('refuses a body declared larger than 64 MB with a 413', async () => {
    const res = await fetch(`${base}/new_block`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.alloc(64 * 1024 * 1024 + 1, 32),
    });
    expect(res.status).to.equal(413);
    expect(log.lastId()).to.equal(0);
  });

  it('keeps the order of posts in the ids it gives', async () => {
    for (let i = 0; i < 20; i++) expect((await post('/new_block', `{"i":${i}}`)).status).to.equal(200);
    expect((await log.readAfter(0, 100)).map((e) => JSON.parse(e.body).i)).to.deep.equal([
      ...Array(20).keys(),
    ]);
  });
});
