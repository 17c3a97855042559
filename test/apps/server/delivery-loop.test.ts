import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import type { FsOutbox } from '../../../adapters/outbox/index.js';
import { openDatabase } from '../../../adapters/store-postgres/database.js';
import { silentLogger } from '../../../adapters/system/index.js';
import { createStackhooks, type Stackhooks, type StackhooksOptions } from '../../../apps/server/container.js';
import { pruneInterval } from '../../../apps/server/delivery-loop.js';
import { DELIVERY_QUEUE } from '../../../core/ports/delivery-queue.js';
import { ChainBuilder, TEST_KEYS, addressOf, stxTransfer } from '../../support/block-builder.js';
import { sampleDefinition } from '../../support/definitions.js';
import { TEST_DATABASE_URL, dropSchema, freshSchemaUrl, postgresAvailable } from '../../support/postgres.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { startTestReceiver, type TestReceiver } from '../../support/test-receiver.js';

const BLOCKS = 6;

// Poll until `done` holds; the test's own timeout bounds the wait (no timing is asserted).
async function until(done: () => Promise<boolean>): Promise<void> {
  while (!(await done())) await new Promise((resolve) => setTimeout(resolve, 25));
}

/** Register a hook on stx transfers to `receiver` and ingest blocks that each send it a payload. */
async function deliverSome(stackhooks: Stackhooks, receiver: TestReceiver): Promise<string> {
  const hook = await stackhooks.registry.register('owner', {
    ...sampleDefinition({ action: { type: 'http_post', url: receiver.url('/hook') } }),
    filters: { events: [{ type: 'stx_event' }] },
    options: { enable_on_registration: true },
  });
  const chain = new ChainBuilder();
  for (let i = 0; i < BLOCKS; i++) {
    const tx = await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: BigInt(i + 1) });
    await stackhooks.ingest.ingestNodeBlock(chain.next({ transactions: [tx] }));
  }
  stackhooks.startDelivery().wake();
  await receiver.waitFor(BLOCKS, 20_000);
  return hook.uuid;
}

const total = async (stackhooks: Stackhooks, uuid: string) =>
  (await stackhooks.deliveryLog.list('owner', uuid, {})).total;

/** The same behaviours on each store: `options` opens it. */
function retentionWhileRunning(
  store: string,
  options: () => Promise<StackhooksOptions>,
  cleanup: () => Promise<void>,
  /** How many delivered bodies the store still keeps (looked at, never changed). */
  bodiesKept: (stackhooks: Stackhooks) => Promise<number>,
) {
  describe(`retention while running, on the ${store} store`, function () {
    this.timeout(40_000);
    let receiver: TestReceiver;
    let stackhooks: Stackhooks | undefined;
    beforeEach(async () => {
      receiver = await startTestReceiver();
    });
    afterEach(async () => {
      await stackhooks?.close();
      stackhooks = undefined;
      await receiver.close();
      await cleanup();
    });
    const start = async (retentionMs: number, deliveredBodyRetentionMs: number) => {
      const given = await options();
      const delivery = { ...given.delivery, retentionMs, deliveredBodyRetentionMs };
      return (stackhooks = await createStackhooks({ ...given, delivery }));
    };

    it('empties the delivery log of payloads past the retention without a restart', async () => {
      const running = await start(1_500, 1_000);
      const uuid = await deliverSome(running, receiver);
      await until(async () => (await total(running, uuid)) === BLOCKS);
      await until(async () => (await total(running, uuid)) === 0);
    });

    it('lets go of a delivered body after its window while the log keeps the record', async () => {
      const running = await start(3_600_000, 300);
      const uuid = await deliverSome(running, receiver);
      await until(async () => {
        const { results } = await running.deliveryLog.list('owner', uuid, {});
        return results.length === BLOCKS && results.every((r) => r.state === 'delivered');
      });
      await until(async () => (await bodiesKept(running)) === 0);
      const [first] = (await running.deliveryLog.list('owner', uuid, {})).results;
      const refused = await running.deliveryLog
        .redeliver('owner', uuid, first.id)
        .catch((err: unknown) => err);
      expect(refused).to.have.property('code', 'conflict');
      expect(await total(running, uuid)).to.equal(BLOCKS);
    });
  });
}

const withPostgres = await postgresAvailable();

describe('startDeliveryLoop', () => {
  it('prunes every 30 seconds, and twice as often as a retention shorter than a minute', () => {
    expect(pruneInterval(7 * 86_400_000)).to.equal(30_000);
    expect(pruneInterval(20_000)).to.equal(10_000);
    expect(pruneInterval(0)).to.equal(100);
  });

  let dataDir: string;
  retentionWhileRunning(
    'embedded',
    async () => {
      dataDir = await makeTempDir();
      return { dataDir, delivery: { allowPrivateTargets: true }, adapters: { logger: silentLogger } };
    },
    () => rm(dataDir, { recursive: true, force: true }),
    async (stackhooks) => stackhooks.container.get<FsOutbox>(DELIVERY_QUEUE).inMemory().cachedBodyBytes,
  );

  describe('memory of the embedded store', function () {
    this.timeout(40_000);
    let receiver: TestReceiver;
    const running: Stackhooks[] = [];
    beforeEach(async () => {
      receiver = await startTestReceiver();
      dataDir = await makeTempDir();
    });
    afterEach(async () => {
      for (const stackhooks of running.splice(0)) await stackhooks.close();
      await receiver.close();
      await rm(dataDir, { recursive: true, force: true });
    });
    const start = async () => {
      const stackhooks = await createStackhooks({
        dataDir,
        delivery: { allowPrivateTargets: true },
        adapters: { logger: silentLogger },
      });
      running.push(stackhooks);
      return stackhooks;
    };
    const inMemory = (stackhooks: Stackhooks) =>
      stackhooks.container.get<FsOutbox>(DELIVERY_QUEUE).inMemory();

    it('holds no delivered payload in memory, and still lists and redelivers them, also after a restart', async () => {
      const first = await start();
      const uuid = await deliverSome(first, receiver);
      await until(async () => inMemory(first).entries === 0);
      expect(inMemory(first)).to.include({ entries: 0, coldPayloads: 0, settledPayloads: BLOCKS });
      const listed = await first.deliveryLog.list('owner', uuid, {});
      expect(listed.results.map((r) => r.state)).to.deep.equal(Array(BLOCKS).fill('delivered'));

      const redelivered = await first.deliveryLog.redeliver('owner', uuid, listed.results[2].id);
      expect(redelivered).to.include({ id: listed.results[2].id, state: 'pending' });
      await receiver.waitFor(BLOCKS + 1, 20_000);
      await until(async () => inMemory(first).entries === 0);
      const again = await first.deliveryLog.list('owner', uuid, {});
      expect(again.results[2].attempts).to.have.length(2);
      await first.close();
      running.splice(0);

      const second = await start();
      expect(inMemory(second)).to.include({ entries: 0, settledPayloads: BLOCKS });
      expect(await second.deliveryLog.list('owner', uuid, {})).to.deep.equal(again);
      await second.deliveryLog.redeliver('owner', uuid, listed.results[4].id);
      second.startDelivery().wake();
      await receiver.waitFor(BLOCKS + 2, 20_000);
      expect(JSON.parse(receiver.received[BLOCKS + 1].body)).to.deep.equal(
        JSON.parse(receiver.received.find((r) => r.headers['webhook-id'] === listed.results[4].id)!.body),
      );
      await until(async () => inMemory(second).entries === 0);
      expect(inMemory(second)).to.include({ settledPayloads: BLOCKS });
    });
  });

  let url: string | undefined;
  if (!withPostgres) {
    it(`needs PostgreSQL at ${TEST_DATABASE_URL} for the Postgres store, which does not answer`);
    return;
  }
  retentionWhileRunning(
    'Postgres',
    async () => {
      dataDir = await makeTempDir();
      url = freshSchemaUrl('retention');
      return {
        dataDir,
        databaseUrl: url,
        delivery: { allowPrivateTargets: true },
        adapters: { logger: silentLogger },
      };
    },
    async () => {
      if (url) await dropSchema(url);
      url = undefined;
      await rm(dataDir, { recursive: true, force: true });
    },
    async () => {
      const db = await openDatabase(url!);
      try {
        const { rows } = await db.pool.query<{ kept: number }>(
          'SELECT count(*)::integer AS kept FROM outbox_payloads WHERE body IS NOT NULL',
        );
        return rows[0].kept;
      } finally {
        await db.close();
      }
    },
  );
});
