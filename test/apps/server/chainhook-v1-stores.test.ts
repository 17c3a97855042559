import { readFile, realpath, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import type { ChainhookV1Payload } from '../../../core/chainhook-v1/v1-payload.js';
import { DELIVERY_QUEUE, type DeliveryQueue } from '../../../core/ports/delivery-queue.js';
import { startTestServer, untilIngested, type TestServer } from '../../support/api-server.js';
import { ChainBuilder, TEST_KEYS, addressOf, stxTransfer } from '../../support/block-builder.js';
import { until } from '../../support/delivery-server.js';
import { TEST_DATABASE_URL, dropSchema, freshSchemaUrl, postgresAvailable } from '../../support/postgres.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { startTestReceiver, type TestReceiver } from '../../support/test-receiver.js';

const withPostgres = await postgresAvailable();
const TRANSFERS = { scope: 'stx_event', actions: ['transfer'] };

/** Where a server keeps its stores: its own data folder, or a fresh schema of the test database. */
type StoreUnderTest = {
  name: string;
  prepare: () => Promise<void>;
  env: () => Record<string, string>;
  drop: () => Promise<void>;
};

function embedded(): StoreUnderTest {
  let dataDir: string | undefined;
  return {
    name: 'the embedded store',
    prepare: async () => void (dataDir = await makeTempDir()),
    env: () => ({ STACKHOOKS_DATA_DIR: dataDir! }),
    drop: async () => {
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
      dataDir = undefined;
    },
  };
}

function postgres(): StoreUnderTest {
  let url: string | undefined;
  return {
    name: 'PostgreSQL',
    prepare: async () => void (url = freshSchemaUrl('v1')),
    env: () => ({ STACKHOOKS_DATABASE_URL: url! }),
    drop: async () => {
      if (url) await dropSchema(url);
      url = undefined;
    },
  };
}

for (const store of [embedded(), postgres()]) {
  describe(`Chainhook 1.x predicates on ${store.name}`, function () {
    this.timeout(90_000);
    if (store.name === 'PostgreSQL' && !withPostgres) {
      it(`needs PostgreSQL at ${TEST_DATABASE_URL}, which does not answer`);
      return;
    }
    let t: TestServer | undefined;
    let receiver: TestReceiver;
    let folder: string;

    const start = async () => {
      t = await startTestServer({
        STACKHOOKS_V1_PORT: '0',
        STACKHOOKS_V1_FILE_APPEND_DIR: folder,
        ...store.env(),
      });
      return t;
    };
    const v1 = (path: string, init?: RequestInit) =>
      fetch(`http://127.0.0.1:${t!.server.v1Port}${path}`, init).then(
        async (r) => (await r.json()) as { status: number; result?: unknown; error?: string },
      );
    const register = (body: object) =>
      v1('/v1/chainhooks', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const predicate = (uuid: string, thenThat: object) => ({
      uuid,
      name: uuid,
      version: 1,
      chain: 'stacks',
      networks: { mainnet: { if_this: TRANSFERS, then_that: thenThat } },
    });
    const posted = () =>
      predicate('v1-posted', { http_post: { url: receiver.url('/p'), authorization_header: 'Bearer xyz' } });
    const appended = () => predicate('v1-appended', { file_append: { path: 'appended.jsonl' } });
    const post = async (block: unknown) => {
      const response = await fetch(`${t!.observerUrl}/new_block`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(block),
      });
      expect(response.status).to.equal(200);
    };
    const appendedLines = async () =>
      (await readFile(join(folder, 'appended.jsonl'), 'utf8').catch(() => ''))
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as ChainhookV1Payload);

    beforeEach(async () => {
      await store.prepare();
      folder = await realpath(await makeTempDir());
      receiver = await startTestReceiver();
    });
    afterEach(async () => {
      await t?.stop();
      t = undefined;
      await receiver.close();
      await store.drop();
      await rm(folder, { recursive: true, force: true });
    });

    it('keeps predicates registered through the 1.x API across a restart, and they still match and deliver', async () => {
      await start();
      expect((await register(posted())).status).to.equal(200);
      expect((await register(appended())).status).to.equal(200);
      await t!.stop();
      t = undefined;

      await start();
      const listed = (await v1('/v1/chainhooks')).result as {
        uuid: string;
        predicate: unknown;
        enabled: boolean;
      }[];
      expect(listed.map(({ uuid, predicate, enabled }) => ({ uuid, predicate, enabled }))).to.deep.equal([
        { uuid: 'v1-posted', predicate: TRANSFERS, enabled: true },
        { uuid: 'v1-appended', predicate: TRANSFERS, enabled: true },
      ]);
      const chain = new ChainBuilder();
      const transfer = await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: 9n });
      await post(chain.next());
      const block = chain.next({ transactions: [transfer] });
      await post(block);
      await untilIngested(t!);
      await receiver.waitFor(1);
      expect(receiver.received[0]!.headers.authorization).to.equal('Bearer xyz');
      const body = JSON.parse(receiver.received[0]!.body) as ChainhookV1Payload;
      expect(body.apply[0]!.transactions.map((tx) => tx.transaction_identifier.hash)).to.deep.equal([
        transfer.transaction.txid,
      ]);
      await until(async () => (await appendedLines()).length === 1);
      expect((await appendedLines())[0]!.apply[0]!.block_identifier.index).to.equal(block.block_height);
    });

    it('registers, lists, gets, matches, delivers and deletes a predicate, refusing its uuid twice', async () => {
      await start();
      expect((await register(posted())).result).to.equal('v1-posted');
      const again = await register(posted());
      expect(again.status).to.equal(409);
      const one = (await v1('/v1/chainhooks/v1-posted')) as {
        status: number;
        result: { uuid: string; status: { type: string } };
      };
      expect(one.result.uuid).to.equal('v1-posted');
      expect(one.result.status.type).to.equal('new');

      const chain = new ChainBuilder();
      await post(chain.next());
      await post(
        chain.next({
          transactions: [await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: 3n })],
        }),
      );
      await untilIngested(t!);
      await receiver.waitFor(1);
      await until(
        async () =>
          ((await v1('/v1/chainhooks/v1-posted')) as { result: { status: { type: string } } }).result.status
            .type === 'streaming',
      );

      const deleted = await v1('/v1/chainhooks/stacks/v1-posted', {
        method: 'DELETE',
        headers: { 'content-type': 'application/json' },
      });
      expect(deleted).to.deep.equal({ status: 200, result: 'Ok' });
      expect((await v1('/v1/chainhooks')).result).to.deep.equal([]);
      expect(await v1('/v1/chainhooks/v1-posted')).to.deep.equal({ status: 404 });
      // A transfer after the delete is matched by nothing: nothing more is queued or sent.
      await post(
        chain.next({
          transactions: [await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: 4n })],
        }),
      );
      await untilIngested(t!);
      const { dispatcher } = t!.server.stackhooks;
      await dispatcher.pump();
      await dispatcher.idle();
      expect(receiver.received).to.have.length(1);
      const queue = t!.server.stackhooks.container.get<DeliveryQueue>(DELIVERY_QUEUE);
      expect(await queue.nextDueAt()).to.equal(undefined);
    });
  });
}
