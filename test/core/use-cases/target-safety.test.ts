import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import {
  createDnsTargetGuard,
  createHttpWebhookSender,
  type HostLookup,
} from '../../../adapters/delivery-got/index.js';
import { MemoryOutbox } from '../../../adapters/outbox/index.js';
import { silentLogger } from '../../../adapters/system/index.js';
import { createStackhooks, type Stackhooks } from '../../../apps/server/container.js';
import { sampleDefinition } from '../../support/definitions.js';
import { startTestServer, TEST_API_KEY, type TestServer } from '../../support/api-server.js';
import { ChainBuilder, TEST_KEYS, addressOf, stxTransfer } from '../../support/block-builder.js';
import { send } from '../../support/raw-http.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { startTestReceiver, type TestReceiver } from '../../support/test-receiver.js';

const key = TEST_API_KEY;

describe('webhook target safety', function () {
  this.timeout(30_000);

  describe('at registration, when private targets are not allowed', () => {
    let t: TestServer;
    before(async () => {
      t = await startTestServer({ STACKHOOKS_ALLOW_PRIVATE_TARGETS: 'false' });
    });
    after(async () => t.stop());

    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://localhost:8080/hook',
      'http://[::1]/hook',
      'http://10.1.2.3/hook',
      'http://192.168.0.10/hook',
      'http://169.254.169.254/latest/meta-data',
    ]) {
      it(`refuses ${url} with a 400 naming action.url`, async () => {
        const res = await send(t.baseUrl, 'POST', '/chainhooks/me', {
          key,
          body: JSON.stringify(sampleDefinition({ action: { type: 'http_post', url } })),
        });
        expect(res.status).to.equal(400);
        expect(res.body.message).to.match(/^action\.url /);
      });
    }

    it('refuses a PATCH that moves the target to a private address', async () => {
      const created = await send(t.baseUrl, 'POST', '/chainhooks/me', {
        key,
        body: JSON.stringify(
          sampleDefinition({ action: { type: 'http_post', url: 'https://93.184.216.34/hook' } }),
        ),
      });
      expect(created.status).to.equal(200);
      const res = await send(t.baseUrl, 'PATCH', `/chainhooks/me/${created.body.uuid}`, {
        key,
        body: JSON.stringify({ action: { type: 'http_post', url: 'http://127.0.0.1/x' } }),
      });
      expect(res.status).to.equal(400);
      expect(res.body.message).to.include('action.url');
    });
  });

  describe('at delivery, after DNS resolution', () => {
    let receiver: TestReceiver;
    let stackhooks: Stackhooks;
    let dataDir: string;
    // A host that looked public at registration and now resolves to loopback (DNS rebinding).
    const rebinding: HostLookup = async () => [{ address: '127.0.0.1', family: 4 }];

    beforeEach(async () => {
      receiver = await startTestReceiver();
      dataDir = await makeTempDir();
      stackhooks = await createStackhooks({
        dataDir,
        delivery: { retryScheduleMs: [0, 20], allowPrivateTargets: false },
        adapters: {
          logger: silentLogger,
          deliveries: new MemoryOutbox(),
          targetGuard: createDnsTargetGuard({
            allowPrivateTargets: false,
            lookup: async () => [{ address: '93.184.216.34', family: 4 }],
          }),
          sender: createHttpWebhookSender({ allowPrivateTargets: false, lookup: rebinding }),
        },
      });
    });
    afterEach(async () => {
      await stackhooks.close();
      await receiver.close();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('refuses a hostname that resolves to 127.0.0.1, sends nothing and interrupts the hook', async () => {
      const port = new URL(receiver.url()).port;
      const hook = await stackhooks.registry.register('owner', {
        ...sampleDefinition({ action: { type: 'http_post', url: `http://rebind.example:${port}/hook` } }),
        filters: { events: [{ type: 'stx_event' }] },
        options: { enable_on_registration: true },
      });
      const chain = new ChainBuilder();
      const tx = await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: 1n });
      await stackhooks.ingest.ingestNodeBlock(chain.next({ transactions: [tx] }));
      const loop = stackhooks.startDelivery();
      loop.wake();
      const deadline = Date.now() + 10_000;
      let state = '';
      while (Date.now() < deadline && state !== 'failed') {
        state = (await stackhooks.deliveryLog.list('owner', hook.uuid, {})).results[0]?.state ?? '';
        await new Promise((r) => setTimeout(r, 20));
      }
      const [record] = (await stackhooks.deliveryLog.list('owner', hook.uuid, {})).results;
      expect(record.state).to.equal('failed');
      expect(record.attempts[0].error).to.match(/refused target rebind\.example/);
      expect(receiver.received).to.deep.equal([]);
      const deadline2 = Date.now() + 5_000;
      while (
        (await stackhooks.registry.get('owner', hook.uuid)).status.status !== 'interrupted' &&
        Date.now() < deadline2
      ) {
        await new Promise((r) => setTimeout(r, 20));
      }
      expect((await stackhooks.registry.get('owner', hook.uuid)).status.status).to.equal('interrupted');
    });
  });
});
