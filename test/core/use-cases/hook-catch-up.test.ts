import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import { interruptHook } from '../../../core/hooks/lifecycle.js';
import type { StoredHook } from '../../../core/hooks/record.js';
import { HOOK_REPOSITORY, type HookRepository } from '../../../core/ports/hook-repository.js';
import { CATCH_UP_BLOCKS_PER_STEP } from '../../../core/use-cases/hook-catch-up.js';
import { sampleDefinition } from '../../support/definitions.js';
import { openEmbedded } from '../../support/live-stack.js';
import { makeTempDir } from '../../support/temp-dir.js';
import type { NodeBlock } from '../../../core/stacks-codec/node-block.js';
import { startTestServer, TEST_API_KEY, untilIngested, type TestServer } from '../../support/api-server.js';
import { ChainBuilder } from '../../support/block-builder.js';
import {
  deliveries,
  postBlock,
  registerTransferHook,
  transferBlocks,
  until,
} from '../../support/delivery-server.js';
import { dropSchema, freshSchemaUrl, postgresAvailable } from '../../support/postgres.js';
import { send } from '../../support/raw-http.js';
import { startTestReceiver, type TestReceiver } from '../../support/test-receiver.js';
import { skipBecause } from '../../support/skip-because.js';

const key = TEST_API_KEY;
const FAST = { STACKHOOKS_RETRY_SCHEDULE: '0,50ms,50ms', STACKHOOKS_DELIVERY_TIMEOUT: '400ms' };

const hookOf = async (t: TestServer, uuid: string) =>
  (await send(t.baseUrl, 'GET', `/chainhooks/me/${uuid}`, { key })).body;
const enable = (t: TestServer, uuid: string, body: object) =>
  send(t.baseUrl, 'PATCH', `/chainhooks/me/${uuid}/enabled`, { key, body: JSON.stringify(body) });

/**
 * A receiver that fails every request while `failing`, and notes the block heights of the requests
 * it answered 200, in the order it answered them.
 */
function gatedReceiver(receiver: TestReceiver) {
  const gate = { failing: true, delivered: [] as number[] };
  receiver.reply((request) => {
    if (gate.failing) return { status: 500 };
    const event = JSON.parse(request.body).event;
    gate.delivered.push(
      ...event.apply.map((b: { block_identifier: { index: number } }) => b.block_identifier.index),
    );
    return { status: 200 };
  });
  return gate;
}

function resumeSuite(name: string, env: () => Record<string, string>) {
  describe(`resuming an interrupted hook (${name})`, function () {
    this.timeout(60_000);
    let t: TestServer;
    let receiver: TestReceiver;
    beforeEach(async () => {
      receiver = await startTestReceiver();
      t = await startTestServer({ ...FAST, ...env() });
    });
    afterEach(async () => {
      await t.stop();
      await receiver.close();
    });

    // Block 1 fails until the hook is interrupted; blocks 2 to 5 arrive while it is (3 has no match).
    async function interruptedWithMissedBlocks(uuid: string, gate: { failing: boolean }) {
      const chain = new ChainBuilder();
      const [b1] = await transferBlocks(1, chain);
      await postBlock(t, b1);
      await until(async () => (await hookOf(t, uuid)).status.status === 'interrupted');
      const missed: NodeBlock[] = [...(await transferBlocks(1, chain)), chain.next({ transactions: [] })];
      missed.push(...(await transferBlocks(2, chain)));
      for (const block of missed) await postBlock(t, block);
      await untilIngested(t);
      gate.failing = false;
      return { b1, missed, chain };
    }

    it('sends exactly the blocks it missed, in order, from its first missed block, then the live ones', async () => {
      const gate = gatedReceiver(receiver);
      const uuid = await registerTransferHook(t, receiver.url());
      const { b1, missed, chain } = await interruptedWithMissedBlocks(uuid, gate);
      const interrupted = await hookOf(t, uuid);
      expect(interrupted.delivery.interruption).to.include({ first_missed_block_height: b1.block_height });
      expect(interrupted.delivery.interruption.reason).to.match(/3 attempts failed/);

      expect((await enable(t, uuid, { enabled: true, resume: true })).status).to.equal(204);
      const matching = [b1, ...missed].filter((b) => b.transactions.length > 0).map((b) => b.block_height);
      await until(() => gate.delivered.length >= matching.length);
      await until(async () => (await hookOf(t, uuid)).delivery === undefined);
      const [live] = await transferBlocks(1, chain);
      await postBlock(t, live);
      await until(() => gate.delivered.length >= matching.length + 1);
      expect(gate.delivered).to.deep.equal([...matching, live.block_height]);
      expect((await hookOf(t, uuid)).status).to.include({ status: 'streaming', enabled: true });
    });

    it('starts from the chain tip when enabled without resume, and forgets the interruption', async () => {
      const gate = gatedReceiver(receiver);
      const uuid = await registerTransferHook(t, receiver.url());
      const { chain } = await interruptedWithMissedBlocks(uuid, gate);
      expect((await enable(t, uuid, { enabled: true })).status).to.equal(204);
      expect((await hookOf(t, uuid)).delivery).to.equal(undefined);
      const [next] = await transferBlocks(1, chain);
      await postBlock(t, next);
      await until(() => gate.delivered.length >= 1);
      expect(gate.delivered).to.deep.equal([next.block_height]);
    });

    it('refuses to redeliver a live payload of an interrupted hook, saying how to resume', async () => {
      const gate = gatedReceiver(receiver);
      const uuid = await registerTransferHook(t, receiver.url());
      await interruptedWithMissedBlocks(uuid, gate);
      const [failed] = (await deliveries(t, uuid, '?state=failed')).results;
      const res = await send(t.baseUrl, 'POST', `/chainhooks/me/${uuid}/deliveries/${failed.id}/redeliver`, {
        key,
      });
      expect(res.status).to.equal(409);
      expect(res.body.message).to.include('"resume": true');
      expect(gate.delivered).to.deep.equal([]);
    });

    it('refuses resume for a hook that was not interrupted, and resume without enabling', async () => {
      const uuid = await registerTransferHook(t, receiver.url());
      const conflict = await enable(t, uuid, { enabled: true, resume: true });
      expect(conflict.status).to.equal(409);
      expect(conflict.body.message).to.include('not interrupted');
      const bad = await enable(t, uuid, { enabled: false, resume: true });
      expect(bad.status).to.equal(400);
      expect(bad.body.message).to.include('resume');
    });
  });
}

resumeSuite('embedded store', () => ({}));

describe('resuming on PostgreSQL', function () {
  let url: string;
  let available = false;
  before(async function () {
    available = await postgresAvailable();
  });
  beforeEach(function () {
    if (!available)
      skipBecause(this, 'no PostgreSQL answers (set STACKHOOKS_TEST_DATABASE_URL or start the local server)');
    url = freshSchemaUrl('resume');
  });
  afterEach(async () => {
    if (available) await dropSchema(url);
  });
  resumeSuite('PostgreSQL', () => ({ STACKHOOKS_DATABASE_URL: url }));
});

describe('HookCatchUp', function () {
  this.timeout(120_000);
  let dataDir: string;
  const open = () => openEmbedded(dataDir);
  beforeEach(async () => {
    dataDir = await makeTempDir();
  });
  afterEach(async () => rm(dataDir, { recursive: true, force: true }));

  it('goes on after a restart where it stopped, queueing each missed block once, in order, over many steps', async () => {
    let s = await open();
    const hook = await s.registry.register(
      'alice',
      sampleDefinition({
        filters: { events: [{ type: 'stx_transfer' }] },
        options: { enable_on_registration: true },
      }),
    );
    const chain = new ChainBuilder();
    const [first, ...rest] = await transferBlocks(CATCH_UP_BLOCKS_PER_STEP * 2 + 30, chain);
    await s.ingest.ingestNodeBlock(first);
    // Interrupted at the first block, as delivery does once its retries are used up.
    const repository = s.container.get<HookRepository>(HOOK_REPOSITORY);
    const interrupt = (h: StoredHook) =>
      interruptHook(h, { first_missed_block_height: first.block_height, interrupted_at: 1, reason: 'test' });
    s.liveMatching.hookChanged(hook.uuid, await repository.update('alice', hook.uuid, interrupt));
    for (const block of rest) await s.ingest.ingestNodeBlock(block);
    await s.registry.enable('alice', hook.uuid, { enabled: true, resume: true });
    // Stopping waits for the step under way: the restart goes on from the next one.
    await s.close();
    s = await open();
    await s.liveMatching.startResumes();
    await until(async () => (await s.registry.get('alice', hook.uuid)).delivery === undefined);
    const heights: number[] = [];
    for (let offset = 0; ; offset += 60) {
      const page = await s.deliveryLog.list('alice', hook.uuid, { offset, limit: 60 });
      heights.push(...page.results.map((r) => r.apply[0].index));
      if (page.results.length < 60) break;
    }
    // The live payload of the first block (its failure is what the interruption stands for), then the resume.
    const missed = [first, ...rest].map((b) => b.block_height);
    expect(heights.reverse()).to.deep.equal([first.block_height, ...missed]);
    await s.close();
  });
});
