import { expect } from 'chai';
import { TEST_API_KEY, startTestServer, untilIngested, type TestServer } from '../../support/api-server.js';
import { ChainBuilder, TEST_KEYS, addressOf, stxTransfer } from '../../support/block-builder.js';
import { sampleDefinition } from '../../support/definitions.js';
import { TEST_DATABASE_URL, dropSchema, freshSchemaUrl, postgresAvailable } from '../../support/postgres.js';
import { startTestReceiver, type TestReceiver } from '../../support/test-receiver.js';

// A response body as JSON: the tests read fields of records, lists and error bodies alike.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;
type Answer = { status: number; body: Body };

/** The routes on one store: `env` names it, `cleanup` drops what it made. */
function backfillRoutes(
  store: string,
  env: () => Record<string, string>,
  cleanup: () => Promise<void>,
): void {
  describe(`backfill routes on the ${store} store`, function () {
    this.timeout(60_000);
    let t: TestServer;
    let receiver: TestReceiver;
    let hook: string;
    let chain: ChainBuilder;
    const TIP = 12;

    const call = async (
      method: string,
      path: string,
      body?: unknown,
      key = TEST_API_KEY,
    ): Promise<Answer> => {
      const response = await fetch(`${t.baseUrl}/chainhooks/v1${path}`, {
        method,
        headers: { 'x-api-key': key, ...(body !== undefined && { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    };
    const untilFinished = async (id: string, of = hook): Promise<Body> => {
      for (;;) {
        const { body } = await call('GET', `/me/${of}/backfills/${id}`);
        if (['done', 'cancelled', 'failed'].includes(body.state)) return body;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };

    before(async () => {
      t = await startTestServer(env());
      receiver = await startTestReceiver();
      chain = new ChainBuilder({ label: `backfill-routes ${store}` });
      const transfer = await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: 1n });
      for (let height = 1; height <= TIP; height++) {
        // Every third block carries a transfer: the hook matches heights 3, 6, 9 and 12.
        const block = chain.next({ transactions: height % 3 === 0 ? [transfer] : [] });
        await t.server.stackhooks.ingest.ingestNodeBlock(block);
      }
      await untilIngested(t);
      const definition = sampleDefinition({
        filters: { events: [{ type: 'stx_transfer' }] },
        action: { type: 'http_post', url: receiver.url('/hook') },
      });
      hook = (await call('POST', '/me', definition)).body.uuid;
    });
    after(async () => {
      await t.stop();
      await receiver.close();
      await cleanup();
    });

    it('answers 202 with the queued backfill, and delivers each matching block in height order with the backfill header', async () => {
      const created = await call('POST', `/me/${hook}/backfills`, {
        from_block_height: 2,
        to_block_height: 10,
      });
      expect(created.status).to.equal(202);
      expect(created.body).to.include({ hook_uuid: hook, from_block_height: 2, to_block_height: 10 });
      expect(created.body.id).to.match(/^bf_[0-9a-f]{16}$/);
      const done = await untilFinished(created.body.id);
      expect(done).to.include({
        state: 'done',
        blocks_scanned: 9,
        blocks_matched: 3,
        payloads_queued: 3,
        payloads_delivered: 3,
        payloads_failed: 0,
        beyond_archive: null,
      });
      expect(done.started_at).to.be.a('number');
      expect(done.finished_at).to.be.a('number');
      expect(done.blocks_per_second).to.be.a('number');
      const sent = receiver.received.filter((r) => r.headers['stackhooks-backfill-id'] === created.body.id);
      const heights = sent.map((r) => JSON.parse(r.body).event.apply[0].block_identifier.index);
      expect(heights).to.deep.equal([3, 6, 9]);
      for (const request of sent) expect(JSON.parse(request.body).event.rollback).to.deep.equal([]);
      const record = (await call('GET', `/me/${hook}`)).body;
      expect(record.status.occurrence_count).to.equal(0);
      expect(record.status.evaluated_block_count).to.equal(0);
    });

    it('defaults to_block_height to the tip', async () => {
      const created = await call('POST', `/me/${hook}/backfills`, { from_block_height: 11 });
      expect(created.body.to_block_height).to.equal(TIP);
    });

    it('scans a range that ends beyond the archive as far as the archive goes, and says so', async () => {
      const created = await call('POST', `/me/${hook}/backfills`, {
        from_block_height: 10,
        to_block_height: 50,
      });
      expect(created.status).to.equal(202);
      expect(created.body.beyond_archive).to.deep.equal({ from_block_height: TIP + 1, to_block_height: 50 });
      const done = await untilFinished(created.body.id);
      expect(done).to.include({ state: 'done', blocks_scanned: 3, blocks_matched: 1, next_block_height: 51 });
      expect(done.beyond_archive).to.deep.equal({ from_block_height: TIP + 1, to_block_height: 50 });
    });

    it('lists the hook’s backfills newest first and reads one by id', async () => {
      const list = await call('GET', `/me/${hook}/backfills`);
      expect(list.status).to.equal(200);
      expect(list.body.total).to.equal(list.body.results.length);
      const created = list.body.results.map((b: { created_at: number }) => b.created_at);
      expect(created).to.deep.equal([...created].sort((a, b) => b - a));
      const one = await call('GET', `/me/${hook}/backfills/${list.body.results[0].id}`);
      expect(one.body).to.deep.include({ id: list.body.results[0].id });
    });

    for (const [body, field] of [
      [{ from_block_height: 5, to_block_height: 4 }, 'to_block_height'],
      [{ from_block_height: TIP + 1 }, 'from_block_height'],
      [{ from_block_height: -1 }, 'from_block_height'],
      [{ from_block_height: 'one' }, 'from_block_height'],
      [{}, 'from_block_height'],
      [{ from_block_height: 1, to_block_height: 2.5 }, 'to_block_height'],
    ] as const) {
      it(`answers 400 naming ${field} for ${JSON.stringify(body)}`, async () => {
        const answer = await call('POST', `/me/${hook}/backfills`, body);
        expect(answer.status).to.equal(400);
        expect(answer.body.message).to.contain(field);
      });
    }

    it('answers 400 naming the id for a malformed backfill id, and 404 for an unknown one', async () => {
      const malformed = await call('GET', `/me/${hook}/backfills/nope`);
      expect(malformed.status).to.equal(400);
      expect(malformed.body.message).to.contain('id');
      expect((await call('GET', `/me/${hook}/backfills/bf_0000000000000000`)).status).to.equal(404);
      expect((await call('DELETE', `/me/${hook}/backfills/bf_0000000000000000`)).status).to.equal(404);
    });

    it('answers 404 for another owner’s hook and its backfills', async () => {
      const mine = (await call('POST', `/me/${hook}/backfills`, { from_block_height: 1 })).body.id;
      const other = (await t.server.stackhooks.keys.issue('mallory')).key;
      expect((await call('POST', `/me/${hook}/backfills`, { from_block_height: 1 }, other)).status).to.equal(
        404,
      );
      expect((await call('GET', `/me/${hook}/backfills`, undefined, other)).status).to.equal(404);
      expect((await call('GET', `/me/${hook}/backfills/${mine}`, undefined, other)).status).to.equal(404);
      expect((await call('DELETE', `/me/${hook}/backfills/${mine}`, undefined, other)).status).to.equal(404);
    });

    it('cancels a backfill: it stays cancelled, and cancelling a finished one returns it as it is', async () => {
      const created = (await call('POST', `/me/${hook}/backfills`, { from_block_height: 1 })).body;
      const cancelled = await call('DELETE', `/me/${hook}/backfills/${created.id}`);
      expect(cancelled.status).to.equal(200);
      expect(['cancelled', 'done']).to.include(cancelled.body.state);
      const after = await untilFinished(created.id);
      expect(after.state).to.equal(cancelled.body.state);
      const again = await call('DELETE', `/me/${hook}/backfills/${created.id}`);
      expect(again.body.state).to.equal(cancelled.body.state);
    });

    it('offers the first skipped block in a header when an interrupted hook is enabled from the tip, and a backfill from there sends it', async () => {
      const path = '/interrupted';
      let gone = true;
      receiver.reply((request) => (request.path === path && gone ? { status: 410 } : { status: 200 }));
      const definition = sampleDefinition({
        filters: { events: [{ type: 'stx_transfer' }] },
        action: { type: 'http_post', url: receiver.url(path) },
        options: { enable_on_registration: true },
      });
      const interrupted = (await call('POST', '/me', definition)).body.uuid;
      const enable = (body: object) =>
        fetch(`${t.baseUrl}/chainhooks/v1/me/${interrupted}/enabled`, {
          method: 'PATCH',
          headers: { 'x-api-key': TEST_API_KEY, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const transfer = await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: 1n });
      // The receiver answers 410 to the block after the tip: the hook is interrupted there.
      await t.server.stackhooks.ingest.ingestNodeBlock(chain.next({ transactions: [transfer] }));
      for (;;) {
        const record = (await call('GET', `/me/${interrupted}`)).body;
        if (record.status.status === 'interrupted') break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await t.server.stackhooks.ingest.ingestNodeBlock(chain.next());
      await t.server.stackhooks.ingest.ingestNodeBlock(chain.next({ transactions: [transfer] }));
      await untilIngested(t);
      gone = false;

      const enabled = await enable({ enabled: true });
      expect(enabled.status).to.equal(204);
      expect(enabled.headers.get('stackhooks-missed-from-block-height')).to.equal(String(TIP + 1));
      const again = await enable({ enabled: true });
      expect(again.headers.get('stackhooks-missed-from-block-height'), 'a hook not interrupted').to.equal(
        null,
      );

      const missed = Number(enabled.headers.get('stackhooks-missed-from-block-height'));
      const created = await call('POST', `/me/${interrupted}/backfills`, { from_block_height: missed });
      expect(await untilFinished(created.body.id, interrupted)).to.include({
        state: 'done',
        blocks_matched: 2,
      });
      const sent = receiver.received.filter((r) => r.headers['stackhooks-backfill-id'] === created.body.id);
      expect(sent.map((r) => JSON.parse(r.body).event.apply[0].block_identifier.index)).to.deep.equal([
        TIP + 1,
        TIP + 3,
      ]);
    });
  });
}

backfillRoutes(
  'embedded',
  () => ({}),
  async () => undefined,
);

const withPostgres = await postgresAvailable();
let url: string | undefined;
if (withPostgres) {
  backfillRoutes(
    'Postgres',
    () => ({ STACKHOOKS_DATABASE_URL: (url = freshSchemaUrl('backfill_routes')) }),
    async () => {
      if (url) await dropSchema(url);
      url = undefined;
    },
  );
} else {
  describe('backfill routes on the Postgres store', () => {
    it(`needs PostgreSQL at ${TEST_DATABASE_URL}, which does not answer`);
  });
}
