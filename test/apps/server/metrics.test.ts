import { spawnSync } from 'node:child_process';
import { expect } from 'chai';
import { runReplay } from '../../../apps/cli/replay-command.js';
import { redactFields } from '../../../adapters/system/index.js';
import {
  RecordingLogger,
  startTestServer,
  untilIngested,
  type TestServer,
} from '../../support/api-server.js';
import { ChainBuilder, TEST_KEYS, addressOf, stxTransfer } from '../../support/block-builder.js';
import { deliveries, postBlock, registerTransferHook, until } from '../../support/delivery-server.js';
import { describeWithFixtures, fixturePath } from '../../support/fixtures.js';
import { parseExposition, sample, type Exposition } from '../../support/prometheus-text.js';
import { send } from '../../support/raw-http.js';
import { startTestReceiver, type TestReceiver } from '../../support/test-receiver.js';

async function scrape(
  t: TestServer,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  const res = await fetch(`http://127.0.0.1:${t.server.metricsPort}/metrics`, { headers });
  return { status: res.status, text: await res.text() };
}

async function metrics(t: TestServer): Promise<Exposition> {
  const { status, text } = await scrape(t);
  expect(status).to.equal(200);
  return parseExposition(text);
}

/** `promtool check metrics` on an exposition: its exit code and what it said. */
function promtoolCheck(text: string): { code: number | null; out: string } {
  const run = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  if (run.error) throw new Error(`promtool is needed (Debian's prometheus package): ${run.error.message}`);
  return { code: run.status, out: `${run.stdout}${run.stderr}` };
}

describe('the /metrics of a running server', function () {
  this.timeout(60_000);
  let t: TestServer;
  let ok: TestReceiver;
  let failing: TestReceiver;
  beforeEach(async () => {
    ok = await startTestReceiver();
    failing = await startTestReceiver();
    failing.reply(() => ({ status: 500 }));
    t = await startTestServer({ STACKHOOKS_RETRY_SCHEDULE: '0,10ms' });
  });
  afterEach(async () => {
    await t.stop();
    await ok.close();
    await failing.close();
  });

  it('counts the blocks, tip, payloads and attempts sent and received, a failing receiver and a reorg', async () => {
    const good = await registerTransferHook(t, ok.url('/good'));
    const bad = await registerTransferHook(t, failing.url('/bad'));
    const chain = new ChainBuilder();
    const transfer = () => stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: 5n });
    const b1 = chain.next({ transactions: [await transfer()] });
    await postBlock(t, b1);
    // The failing receiver's hook is interrupted after its two attempts, before the next block.
    await until(async () => (await deliveries(t, bad)).results[0]?.state === 'failed');
    const b2 = chain.next({ transactions: [await transfer()] });
    await postBlock(t, b2);
    // A block at b2's height on another branch replaces it: a reorg of depth 1.
    const side = chain
      .forkFrom(b1.index_block_hash)
      .next({ transactions: [await transfer(), await transfer()] });
    await postBlock(t, side);
    await postBlock(t, b1); // a duplicate: received and processed, nothing changes
    await untilIngested(t);
    await until(
      async () =>
        (await deliveries(t, good)).results.every((d: { state: string }) => d.state === 'delivered') &&
        ok.received.length === 3,
    );

    const m = await metrics(t);
    expect(sample(m, 'stackhooks_blocks_received_total')).to.equal(4);
    expect(sample(m, 'stackhooks_observer_posts_total', { path: '/new_block' })).to.equal(4);
    // Every post stored is timed, from its arrival to its 200 (the server posts only blocks here).
    expect(sample(m, 'stackhooks_observer_post_seconds_count')).to.equal(4);
    expect(sample(m, 'stackhooks_observer_post_seconds_sum')).to.be.greaterThan(0);
    // The append of each is timed too, as the part of the post's time the event log took.
    expect(sample(m, 'stackhooks_event_log_append_seconds_count')).to.equal(4);
    expect(sample(m, 'stackhooks_event_log_append_seconds_sum'))
      .to.be.greaterThan(0)
      .and.at.most(sample(m, 'stackhooks_observer_post_seconds_sum')!);
    expect(sample(m, 'stackhooks_blocks_processed_total')).to.equal(4);
    expect(sample(m, 'stackhooks_block_processing_seconds_count')).to.equal(4);
    expect(sample(m, 'stackhooks_chain_tip_height')).to.equal(side.block_height);
    expect(sample(m, 'stackhooks_ingest_lag_entries')).to.equal(0);
    expect(sample(m, 'stackhooks_reorgs_total')).to.equal(1);
    expect(sample(m, 'stackhooks_reorg_depth_blocks_sum')).to.equal(1);

    // Payloads: both hooks for b1, the good one for b2, and for the reorg (rollback b2, apply side).
    const queued = (await deliveries(t, good)).total + (await deliveries(t, bad)).total;
    expect(queued).to.equal(4);
    expect(sample(m, 'stackhooks_payloads_queued_total')).to.equal(queued);
    expect(sample(m, 'stackhooks_hook_matches_total')).to.equal(4);
    expect(sample(m, 'stackhooks_outbox_pending')).to.equal(0);

    // Attempts as the receivers saw them: 3 answered 200; the failing one got 2, retried then given up.
    const attempts = (outcome: string, status_class: string) =>
      sample(m, 'stackhooks_delivery_attempts_total', { outcome, status_class });
    expect(attempts('delivered', '2xx')).to.equal(ok.received.length);
    expect(failing.received.length).to.equal(2);
    expect(attempts('retrying', '5xx')).to.equal(1);
    expect(attempts('failed', '5xx')).to.equal(1);
    expect(sample(m, 'stackhooks_delivery_attempt_seconds_count')).to.equal(ok.received.length + 2);
    expect(sample(m, 'stackhooks_hooks_interrupted_total')).to.equal(1);
    expect(sample(m, 'stackhooks_hooks', { status: 'streaming', enabled: 'true' })).to.equal(1);
    expect(sample(m, 'stackhooks_hooks', { status: 'interrupted', enabled: 'false' })).to.equal(1);

    // API requests by route template, never by the raw path.
    const route = (method: string, path: string, status: string) =>
      sample(m, 'stackhooks_http_request_duration_seconds_count', { method, route: path, status });
    expect(route('POST', '/chainhooks/me', '200')).to.equal(2);
    expect(route('GET', '/chainhooks/me/:uuid/deliveries', '200')).to.be.at.least(2);
    expect([...m.keys()].some((key) => key.includes(good))).to.equal(false);
  });

  it('passes promtool check metrics, with the process figures', async () => {
    await postBlock(t, new ChainBuilder().next());
    await untilIngested(t);
    const { text } = await scrape(t);
    expect(parseExposition(text).has('process_cpu_user_seconds_total')).to.equal(true);
    expect(promtoolCheck(text)).to.deep.equal({ code: 0, out: '' });
  });
});

describe('the metrics listener', function () {
  this.timeout(30_000);
  let t: TestServer | undefined;
  afterEach(async () => t?.stop());

  it('answers /metrics only with the bearer token when one is set', async () => {
    t = await startTestServer({ STACKHOOKS_METRICS_TOKEN: 'scrape-token-0123456789' });
    expect((await scrape(t)).status).to.equal(401);
    expect((await scrape(t, { authorization: 'Bearer wrong' })).status).to.equal(401);
    const allowed = await scrape(t, { authorization: 'Bearer scrape-token-0123456789' });
    expect(allowed.status).to.equal(200);
    expect(allowed.text).to.include('stackhooks_blocks_received_total');
  });

  it('logs whether a scrape needs the token, in a field the log does not censor', async () => {
    const logger = new RecordingLogger();
    t = await startTestServer({ STACKHOOKS_METRICS_TOKEN: 'scrape-token-0123456789' }, logger);
    const line = logger.lines.find((l) => l.message === 'metrics listening')!;
    expect(redactFields(line.fields)).to.include({ token_required: true });
    expect(JSON.stringify(line.fields)).to.not.include('scrape-token');
  });

  it('serves /health and /ready without the token, and nothing else', async () => {
    t = await startTestServer({ STACKHOOKS_METRICS_TOKEN: 'scrape-token-0123456789' });
    const base = `http://127.0.0.1:${t.server.metricsPort}`;
    expect(await (await fetch(`${base}/health`)).json()).to.deep.equal({ status: 'ok' });
    expect(await (await fetch(`${base}/ready`)).json()).to.deep.equal({ ready: true, reasons: [] });
    expect((await fetch(`${base}/chainhooks/v1`)).status).to.equal(404);
  });

  it('ends a start whose metrics port is taken with a message naming the setting', async () => {
    t = await startTestServer();
    const taken = String(t.server.metricsPort);
    let failure: unknown;
    await startTestServer({ STACKHOOKS_METRICS_PORT: taken }).catch((err: unknown) => (failure = err));
    expect(String(failure)).to.include(`127.0.0.1:${taken}`).and.include('STACKHOOKS_METRICS_PORT');
  });

  it('is not started when turned off', async () => {
    t = await startTestServer({ STACKHOOKS_METRICS_PORT: 'off' });
    expect(t.server.metricsPort).to.equal(0);
  });
});

describeWithFixtures('the /metrics after recorded node traffic', function () {
  this.timeout(120_000);

  it('counts every post of mainnet-reorg-scenario1, its blocks, its reorgs and its tip', async () => {
    const logger = new RecordingLogger();
    const t = await startTestServer({}, logger);
    try {
      await runReplay(fixturePath('stacks-blockchain-api/mainnet-reorg-scenario1.tsv'), {
        to: t.observerUrl,
        rate: 0,
      });
      await untilIngested(t);
      const m = await metrics(t);
      const posts = (path: string) => sample(m, 'stackhooks_observer_posts_total', { path });
      expect([posts('/new_block'), posts('/new_burn_block'), posts('/new_microblocks')]).to.deep.equal([
        50, 96, 3,
      ]);
      expect(sample(m, 'stackhooks_blocks_received_total')).to.equal(50);
      expect(
        sample(m, 'stackhooks_blocks_processed_total') + sample(m, 'stackhooks_bodies_quarantined_total'),
      ).to.equal(50);
      const reorgs = logger.lines.filter((line) => line.message === 'chain reorganized');
      expect(reorgs.length).to.be.greaterThan(0);
      expect(sample(m, 'stackhooks_reorgs_total')).to.equal(reorgs.length);
      expect(sample(m, 'stackhooks_reorg_depth_blocks_sum')).to.equal(
        reorgs.reduce((sum, line) => sum + (line.fields.depth as number), 0),
      );
      const status = (await send(t.baseUrl, 'GET', '/chainhooks/v1')).body;
      expect(sample(m, 'stackhooks_chain_tip_height')).to.equal(status.chain_tip.block_height);
      expect(sample(m, 'stackhooks_chain_open_gaps')).to.equal(status.chain.open_gaps);
      expect(sample(m, 'stackhooks_held_orphans')).to.equal(status.chain.held_orphans);
      expect(sample(m, 'stackhooks_blocks_archived_total')).to.equal(status.archived_blocks);
      expect(promtoolCheck(await (await scrape(t)).text).code).to.equal(0);
    } finally {
      await t.stop();
    }
  });
});
