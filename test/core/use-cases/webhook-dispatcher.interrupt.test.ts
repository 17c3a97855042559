import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import { MemoryOutbox } from '../../../adapters/outbox/index.js';
import { silentLogger } from '../../../adapters/system/index.js';
import { createStackhooks, type Stackhooks } from '../../../apps/server/container.js';
import type { AttemptReport } from '../../../core/ports/delivery-queue.js';
import type { SendResult, WebhookSender } from '../../../core/ports/webhook-sender.js';
import { ChainBuilder, TEST_KEYS, addressOf, stxTransfer } from '../../support/block-builder.js';
import { sampleDefinition } from '../../support/definitions.js';
import { makeTempDir } from '../../support/temp-dir.js';

/**
 * A memory outbox on which a user's redeliver lands the moment a failure is recorded: the
 * earliest a client polling the delivery log could see the failed record and ask again.
 */
class RedeliverAtOnce extends MemoryOutbox {
  redelivered = 0;

  override async recordAttempts(reports: readonly AttemptReport[]): Promise<void> {
    await super.recordAttempts(reports);
    for (const { id, outcome } of reports) {
      if (outcome.state !== 'failed' || this.redelivered > 0) continue;
      const payload = this.all().find((p) => p.id === id)!;
      this.redelivered++;
      await this.redeliver(payload.hook_uuid, id, Date.now());
    }
  }
}

/** Answers each POST with the next status of the list (the last one repeats). */
function answering(...statuses: number[]): WebhookSender & { sent: number } {
  return {
    sent: 0,
    async send(): Promise<SendResult> {
      const status = statuses[Math.min(this.sent++, statuses.length - 1)];
      return { status, retryAfterSeconds: null, error: null, refusedTarget: false, latencyMs: 1 };
    },
  };
}

describe('WebhookDispatcher interrupting a hook', () => {
  let dataDir: string;
  let stackhooks: Stackhooks;
  afterEach(async () => {
    await stackhooks?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('leaves a redeliver asked for as soon as the failure shows to be delivered, not failed by the interrupt', async () => {
    dataDir = await makeTempDir();
    const queue = new RedeliverAtOnce();
    const sender = answering(410, 200);
    stackhooks = await createStackhooks({
      dataDir,
      delivery: { allowPrivateTargets: true },
      adapters: { deliveries: queue, sender, logger: silentLogger },
    });
    const hook = await stackhooks.registry.register(
      'tester',
      sampleDefinition({
        filters: { events: [{ type: 'stx_transfer' }] },
        action: { type: 'http_post', url: 'http://127.0.0.1:9/hook' },
        options: { enable_on_registration: true },
      }),
    );
    const chain = new ChainBuilder();
    const tx = await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: 1n });
    await stackhooks.ingest.ingestNodeBlock(chain.next({ transactions: [tx] }));
    const [payload] = queue.all();

    for (let round = 0; round < 5 && sender.sent < 2; round++) {
      await stackhooks.dispatcher.pump();
      await stackhooks.dispatcher.idle();
    }

    expect(queue.redelivered).to.equal(1);
    expect(sender.sent).to.equal(2);
    const record = await queue.get(hook.uuid, payload.id);
    expect(record?.state).to.equal('delivered');
    expect(record?.attempts.map((a) => a.status_code)).to.deep.equal([410, 200]);
    expect((await stackhooks.registry.get('tester', hook.uuid)).status).to.include({
      status: 'interrupted',
      enabled: false,
    });
  });
});
