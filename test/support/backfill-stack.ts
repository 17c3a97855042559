import { rm } from 'node:fs/promises';
import { MemoryOutbox } from '../../adapters/outbox/index.js';
import { silentLogger } from '../../adapters/system/index.js';
import { createStackhooks, type Stackhooks, type StackhooksOptions } from '../../apps/server/container.js';
import type { BackfillRecord } from '../../core/backfill/backfill.js';
import type { OutgoingPayload } from '../../core/ports/delivery-queue.js';
import type { WebhookRequest, WebhookSender } from '../../core/ports/webhook-sender.js';
import { makeTempDir } from './temp-dir.js';

/** A whole instance on the embedded stores with an in-memory outbox, backfills and delivery running. */
export type BackfillStack = {
  stackhooks: Stackhooks;
  queue: MemoryOutbox;
  /** Every request delivery sent, in order (the receiver answers 200 at once). */
  sent: WebhookRequest[];
  owner: string;
  /** Wait until the backfill is finished, and return it. */
  finished(hookUuid: string, id: string): Promise<BackfillRecord>;
  /** The backfill payloads queued for a hook, in queue order. */
  payloads(hookUuid: string): OutgoingPayload[];
  stop(): Promise<void>;
};

/** Build one in a fresh data folder, with a receiver that takes every payload. */
export async function startBackfillStack(options: StackhooksOptions = {}): Promise<BackfillStack> {
  const dataDir = await makeTempDir();
  const queue = new MemoryOutbox();
  const sent: WebhookRequest[] = [];
  const sender: WebhookSender = {
    send: async (request) => {
      sent.push(request);
      return { status: 200, retryAfterSeconds: null, error: null, refusedTarget: false, latencyMs: 0 };
    },
  };
  const stackhooks = await createStackhooks({
    dataDir,
    delivery: { allowPrivateTargets: true },
    ...options,
    adapters: { deliveries: queue, logger: silentLogger, sender, ...options.adapters },
  });
  stackhooks.startDelivery();
  stackhooks.startBackfills();
  const owner = 'tester';
  return {
    stackhooks,
    queue,
    sent,
    owner,
    finished: (hookUuid, id) => untilFinished(stackhooks, owner, hookUuid, id),
    payloads: (hookUuid) => queue.all().filter((p) => p.hook_uuid === hookUuid && p.kind === 'backfill'),
    async stop() {
      await stackhooks.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Poll a backfill until it is done, cancelled or failed. */
export async function untilFinished(
  stackhooks: Stackhooks,
  owner: string,
  hookUuid: string,
  id: string,
): Promise<BackfillRecord> {
  for (;;) {
    const record = await stackhooks.backfills.get(owner, hookUuid, id);
    if (record.state === 'done' || record.state === 'cancelled' || record.state === 'failed') return record;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
