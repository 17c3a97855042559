import { expect } from 'chai';
import { MemoryOutbox } from '../../../adapters/outbox/index.js';
import { createFolderPayloadFiles } from '../../../adapters/payload-files-fs/index.js';
import { SystemClock, silentLogger } from '../../../adapters/system/index.js';
import type { AccountStore } from '../../../core/ports/account-store.js';
import type { AttemptReport, DeliveryQueue } from '../../../core/ports/delivery-queue.js';
import type { HookRepository } from '../../../core/ports/hook-repository.js';
import type { SendResult, WebhookRequest, WebhookSender } from '../../../core/ports/webhook-sender.js';
import type { DeliverySettings } from '../../../core/settings.js';
import { WebhookDispatcher } from '../../../core/use-cases/webhook-dispatcher.js';
import { outgoing } from '../../contracts/delivery-queue.contract.js';
import { until } from '../../support/delivery-server.js';

const SETTINGS: DeliverySettings = {
  concurrency: 4,
  slowConcurrency: 2,
  slowAfterMs: 60_000,
  circuitOpenMs: 30_000,
  timeoutMs: 10_000,
  retryScheduleMs: [0, 0, 0],
  retentionMs: 60_000,
  deliveredBodyRetentionMs: 60_000,
  allowPrivateTargets: true,
  leaseMs: 60_000,
};
/** What the dispatcher may hold unsettled: twice the slots of both lanes. */
const MAX_UNSETTLED = 2 * (SETTINGS.concurrency + SETTINGS.slowConcurrency);

/** An outbox whose recorded outcomes become durable only when the test lets them. */
function heldRecords(outbox: MemoryOutbox): { queue: DeliveryQueue; release(): void; held(): number } {
  const waiting: (() => void)[] = [];
  let holding = true;
  const record = async (reports: readonly AttemptReport[]) => {
    if (holding) await new Promise<void>((resolve) => waiting.push(resolve));
    await outbox.recordAttempts(reports);
  };
  const queue = new Proxy(outbox, {
    get: (target, name: keyof MemoryOutbox) =>
      name === 'recordAttempts' ? record : (target[name] as (...a: unknown[]) => unknown).bind(target),
  });
  return {
    queue,
    release() {
      holding = false;
      for (const resolve of waiting.splice(0)) resolve();
    },
    held: () => waiting.length,
  };
}

/** A receiver that answers 200 at once and notes each payload id it was sent, in order. */
class NotingSender implements WebhookSender {
  readonly sent: string[] = [];

  async send(request: WebhookRequest): Promise<SendResult> {
    this.sent.push(request.headers['webhook-id']);
    return { status: 200, retryAfterSeconds: null, error: null, refusedTarget: false, latencyMs: 1 };
  }
}

function dispatcherOver(queue: DeliveryQueue, sender: WebhookSender): WebhookDispatcher {
  const hooks = { getByUuids: async () => [] } as unknown as HookRepository;
  const accounts = { getConsumerSecret: async () => null } as unknown as AccountStore;
  return new WebhookDispatcher(
    queue,
    sender,
    accounts,
    hooks,
    new SystemClock(),
    silentLogger,
    SETTINGS,
    { network: 'mainnet', maxHooksPerOwner: 100, serverVersion: 'test' },
    () => 0.5,
    createFolderPayloadFiles({ folder: undefined, offReason: 'no file targets in this test' }),
  );
}

describe('WebhookDispatcher concurrency', function () {
  this.timeout(30_000);

  it("sends other hooks' payloads while answered ones wait to be recorded, never a hook's next before its previous is recorded", async () => {
    const outbox = new MemoryOutbox();
    const held = heldRecords(outbox);
    const sender = new NotingSender();
    const hooks = Array.from({ length: 10 }, (_, i) => `hook-${i}`);
    const queued = new Map(
      hooks.map((hook) => [hook, [1, 2, 3].map((n) => outgoing(hook, { id: `${hook}-${n}` }))]),
    );
    for (let n = 0; n < 3; n++) await outbox.enqueue(hooks.map((hook) => queued.get(hook)![n]));
    const dispatcher = dispatcherOver(held.queue, sender);
    void dispatcher.pump();

    // Four slots, yet every hook's first payload goes out while no outcome is recorded.
    await until(() => sender.sent.length === hooks.length);
    expect([...sender.sent].sort()).to.deep.equal(hooks.map((hook) => `${hook}-1`).sort());

    held.release();
    await until(() => sender.sent.length === hooks.length * 3);
    await dispatcher.idle();
    for (const hook of hooks) {
      expect(
        sender.sent.filter((id) => id.startsWith(`${hook}-`)),
        hook,
      ).to.deep.equal([`${hook}-1`, `${hook}-2`, `${hook}-3`]);
    }
    expect((await outbox.pendingSummary()).pending).to.equal(0);
  });

  it('holds at most twice the slots of both lanes in hooks taken and not yet recorded', async () => {
    const outbox = new MemoryOutbox();
    const held = heldRecords(outbox);
    const sender = new NotingSender();
    const hooks = Array.from({ length: 3 * MAX_UNSETTLED }, (_, i) => `hook-${i}`);
    await outbox.enqueue(hooks.map((hook) => outgoing(hook, { id: `${hook}-1` })));
    const dispatcher = dispatcherOver(held.queue, sender);
    void dispatcher.pump();

    await until(() => sender.sent.length >= MAX_UNSETTLED);
    // Rounds that could start more have had every chance to: more pumps change nothing.
    for (let i = 0; i < 5; i++) await dispatcher.pump();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sender.sent).to.have.length(MAX_UNSETTLED);

    held.release();
    await until(() => sender.sent.length === hooks.length);
    await dispatcher.idle();
    expect(new Set(sender.sent).size).to.equal(hooks.length);
  });
});
