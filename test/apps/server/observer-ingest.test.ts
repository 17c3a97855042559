import { readdirSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { BLOCK_STORE, type BlockStore } from '../../../core/ports/block-store.js';
import { runReplay } from '../../../apps/cli/replay-command.js';
import {
  RecordingLogger,
  startTestServer,
  untilIngested,
  type TestServer,
} from '../../support/api-server.js';
import { ChainBuilder, TEST_KEYS, addressOf, stxTransfer } from '../../support/block-builder.js';
import { describeWithFixtures, fixturePath, fixturesDir } from '../../support/fixtures.js';
import { send } from '../../support/raw-http.js';
import { openFsEventLog } from '../../../adapters/event-log-fs/index.js';

async function postBlock(t: TestServer, body: unknown): Promise<number> {
  const res = await fetch(`${t.observerUrl}/new_block`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return res.status;
}

describe('blocks in through the observer endpoint', () => {
  let t: TestServer;
  let logger: RecordingLogger;
  beforeEach(async () => {
    logger = new RecordingLogger();
    t = await startTestServer({}, logger);
  });
  const folders: string[] = [];
  afterEach(async () => {
    await t.stop();
    for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
  });

  it('archives built blocks, follows a fork and reports the tip on the status route', async () => {
    const chain = new ChainBuilder();
    const transfer = await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: 5n });
    const b1 = chain.next({ transactions: [transfer] });
    const b2 = chain.next();
    const side = chain.forkFrom(b1.index_block_hash).next();
    for (const block of [b1, b2, side]) expect(await postBlock(t, block)).to.equal(200);
    expect(await postBlock(t, b2)).to.equal(200);
    await untilIngested(t);
    const status = await send(t.baseUrl, 'GET', '/chainhooks/v1');
    expect(status.body.archived_blocks).to.equal(3);
    expect(status.body.chain_tip.index_block_hash).to.equal(side.index_block_hash);
    expect(logger.errors()).to.deep.equal([]);
  });

  it('processes after a restart what its event log stored while it was stopped', async () => {
    const chain = new ChainBuilder();
    const blocks = [chain.next(), chain.next(), chain.next()];
    await t.server.stop('test');
    const log = await openFsEventLog(join(t.dataDir, 'events'));
    for (const block of blocks) await log.append('/new_block', JSON.stringify(block), 0);
    await log.close();
    const folder = t.dataDir;
    folders.push(folder);
    t = await startTestServer({ STACKHOOKS_DATA_DIR: folder }, logger);
    await untilIngested(t);
    const status = await send(t.baseUrl, 'GET', '/chainhooks/v1');
    expect(status.body.archived_blocks).to.equal(3);
  });

  it('refuses appends of its own copy of the event log while the observer thread appends', async () => {
    const error = await t.server.stackhooks.eventLog.append('/new_block', '{}', 0).then(
      () => undefined,
      (err: Error) => err.message,
    );
    expect(error).to.match(/observer thread/);
  });
});

describeWithFixtures('the recorded node traffic through the observer endpoint', function () {
  this.timeout(300_000);
  const dir = fixturesDir()!;
  const replayFiles = [
    ...['stacks-blockchain-api', 'signer-metrics-api'].flatMap((sub) =>
      readdirSync(join(dir, sub))
        .filter((name) => /\.tsv(\.gz)?$/.test(name))
        .map((name) => `${sub}/${name}`),
    ),
  ];

  for (const file of replayFiles) {
    it(`replays ${file} without an error`, async () => {
      const logger = new RecordingLogger();
      const t = await startTestServer({}, logger);
      try {
        const summary = await runReplay(fixturePath(file), { to: t.observerUrl, rate: 0 });
        expect(summary.retries).to.equal(0);
        await untilIngested(t);
        expect(logger.errors()).to.deep.equal([]);
        const status = await send(t.baseUrl, 'GET', '/chainhooks/v1');
        expect(status.body.archived_blocks).to.be.greaterThan(0);
      } finally {
        await t.stop();
      }
    });
  }

  it('archives every synthetic single-block payload without an error', async () => {
    const logger = new RecordingLogger();
    const t = await startTestServer({}, logger);
    try {
      const folder = join(dir, 'stacks-blockchain-api/synthetic-tx-payloads');
      const names = readdirSync(folder).filter((n) => n.endsWith('.json'));
      for (const name of names) {
        expect(await postBlock(t, JSON.parse(await readFile(join(folder, name), 'utf8')))).to.equal(200);
      }
      await untilIngested(t);
      expect(logger.errors()).to.deep.equal([]);
      expect((await send(t.baseUrl, 'GET', '/chainhooks/v1')).body.archived_blocks).to.equal(names.length);
    } finally {
      await t.stop();
    }
  });

  it('archives 506 distinct blocks from the 801 posts of stackerdb-sample-events', async () => {
    const t = await startTestServer();
    try {
      await runReplay(fixturePath('signer-metrics-api/stackerdb-sample-events.tsv.gz'), {
        to: t.observerUrl,
        rate: 0,
      });
      await untilIngested(t);
      const status = await send(t.baseUrl, 'GET', '/chainhooks/v1');
      expect(status.body.archived_blocks).to.equal(506);
      expect(status.body.chain_tip.block_height).to.equal(505);
    } finally {
      await t.stop();
    }
  });

  it('ends mainnet-reorg-scenario1 with the blocks the later blocks build on as canonical', async () => {
    const t = await startTestServer();
    try {
      await runReplay(fixturePath('stacks-blockchain-api/mainnet-reorg-scenario1.tsv'), {
        to: t.observerUrl,
        rate: 0,
      });
      await untilIngested(t);
      const archive = t.server.stackhooks.container.get<BlockStore>(BLOCK_STORE);
      for (const height of [30, 45]) {
        const child = await archive.getCanonicalAt(height + 1);
        const canonical = await archive.getCanonicalAt(height);
        expect(canonical!.block_identifier.hash).to.equal(child!.parent_block_identifier.hash);
      }
    } finally {
      await t.stop();
    }
  });
});
