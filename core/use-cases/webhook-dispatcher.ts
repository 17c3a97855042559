import { inject, injectable } from 'inversify';
import type { DeliveryAttempt } from '../delivery/delivery-record.js';
import { describeFailure, isSuccess, nextStep } from '../delivery/retry-policy.js';
import { signPayload } from '../delivery/sign-payload.js';
import { interruptHook, toUnixSeconds } from '../hooks/lifecycle.js';
import { ACCOUNT_STORE, type AccountStore } from '../ports/account-store.js';
import { CLOCK, type Clock } from '../ports/clock.js';
import {
  DELIVERY_QUEUE,
  type DeliveryQueue,
  type DueDelivery,
  type OutgoingPayload,
} from '../ports/delivery-queue.js';
import { HOOK_REPOSITORY, type HookRepository } from '../ports/hook-repository.js';
import { LOGGER, type Logger } from '../ports/logger.js';
import { WEBHOOK_SENDER, type WebhookSender } from '../ports/webhook-sender.js';
import {
  DELIVERY_SETTINGS,
  SERVICE_SETTINGS,
  type DeliverySettings,
  type ServiceSettings,
} from '../settings.js';
import type { StoredHook } from '../hooks/record.js';
import { AttemptRecorder } from './attempt-recorder.js';
import type { HookChangeListener } from './hook-registry.js';

/** What a batch of attempts sends with, read once for the batch: hooks by uuid, secrets by owner. */
type Targets = { hooks: Map<string, StoredHook>; secrets: Map<string, string | null> };

/** Jitter for retry waits; replaced in tests to make schedules exact. */
export const DELIVERY_RANDOM = Symbol.for('stackhooks.DeliveryRandom');

/** The headers of compat.md section 7 for one attempt; the secret ones only when the owner has a secret. */
export function webhookHeaders(
  payload: OutgoingPayload,
  body: string,
  timestampSeconds: number,
  secret: string | null,
  serverVersion: string,
): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': `stackhooks/${serverVersion}`,
    'webhook-id': payload.id,
    'webhook-timestamp': String(timestampSeconds),
  };
  if (secret) {
    headers.authorization = `Bearer ${secret}`;
    headers['x-chainhook-consumer-secret'] = secret;
    headers['webhook-signature'] = signPayload(secret, payload.id, timestampSeconds, body);
  }
  return headers;
}

/**
 * Sends queued payloads: one at a time per hook, in queue order, up to `concurrency` hooks in
 * parallel. Payloads are taken from the queue in batches, and each batch reads its hooks' URLs and
 * owners' consumer secrets afresh, in one read each (a rotation or a PATCH takes effect on the
 * next payload taken). Attempts that end together are recorded together. When a live payload's
 * retries are used up, the hook is interrupted and disabled and its other pending payloads are
 * failed, visibly, in the log.
 */
@injectable()
export class WebhookDispatcher {
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly listeners: HookChangeListener[] = [];
  private readonly settledListeners: (() => void)[] = [];
  private pumping: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private readonly recorder: AttemptRecorder;

  constructor(
    @inject(DELIVERY_QUEUE) private readonly queue: DeliveryQueue,
    @inject(WEBHOOK_SENDER) private readonly sender: WebhookSender,
    @inject(ACCOUNT_STORE) private readonly accounts: AccountStore,
    @inject(HOOK_REPOSITORY) private readonly hooks: HookRepository,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(LOGGER) private readonly logger: Logger,
    @inject(DELIVERY_SETTINGS) private readonly settings: DeliverySettings,
    @inject(SERVICE_SETTINGS) private readonly service: ServiceSettings,
    @inject(DELIVERY_RANDOM) private readonly random: () => number,
  ) {
    this.recorder = new AttemptRecorder(queue);
  }

  /** Be told when delivery interrupts a hook. */
  onChange(listener: HookChangeListener): void {
    this.listeners.push(listener);
  }

  /** Be told after every attempt settles (a retry may now be due at a new time). */
  onSettled(listener: () => void): void {
    this.settledListeners.push(listener);
  }

  /** Start every due payload that a free slot allows; calls while busy coalesce into one more round. */
  pump(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.pumping) {
      this.again = true;
      return this.pumping;
    }
    this.pumping = this.startDue()
      .catch((err: unknown) => this.logger.error('delivery round failed', { error: String(err) }))
      .finally(() => {
        this.pumping = undefined;
        if (this.again) {
          this.again = false;
          void this.pump();
        }
      });
    return this.pumping;
  }

  /**
   * When the next pending payload is due (ms), for the caller's timer; undefined when none is, or
   * while attempts are in flight: each of those ending pumps again (so a retry set meanwhile goes
   * out at the next one after its time, or at the caller's safety net), and asking the queue after
   * every batch would cost a shared outbox a round trip each time.
   */
  nextDueAt(): Promise<number | undefined> {
    if (this.inFlight.size > 0) return Promise.resolve(undefined);
    return this.queue.nextDueAt();
  }

  /** Resolves when no attempt is in flight. */
  async idle(): Promise<void> {
    while (this.pumping || this.inFlight.size > 0) {
      await Promise.all([this.pumping, ...this.inFlight.values()]);
    }
  }

  /** Start no new attempt; let those in flight finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.idle();
  }

  private async startDue(): Promise<void> {
    for (;;) {
      const free = this.settings.concurrency - this.inFlight.size;
      if (free <= 0) return;
      const due = await this.queue.due(this.clock.now(), free, new Set(this.inFlight.keys()));
      if (due.length === 0) return;
      const targets = this.readTargets(due);
      for (const delivery of due) {
        const hook = delivery.payload.hook_uuid;
        const id = delivery.payload.id;
        const work = targets
          .then(
            (read) =>
              this.attempt(delivery, read).catch((err: unknown) =>
                this.logger.error('delivery attempt failed to record', { id, error: String(err) }),
              ),
            // Nothing was sent: the payload stays pending and is taken again.
            (err: unknown) =>
              this.logger.error('reading the hook and secret for a delivery failed', {
                id,
                error: String(err),
              }),
          )
          .finally(() => {
            this.inFlight.delete(hook);
            void this.pump();
            for (const listener of this.settledListeners) listener();
          });
        this.inFlight.set(hook, work);
      }
    }
  }

  private async readTargets(due: readonly DueDelivery[]): Promise<Targets> {
    const owners = [...new Set(due.map((d) => d.payload.owner))];
    const [hooks, secrets] = await Promise.all([
      this.hooks.getByUuids(due.map((d) => d.payload.hook_uuid)),
      Promise.all(owners.map((owner) => this.accounts.getConsumerSecret(owner))),
    ]);
    return {
      hooks: new Map(hooks.map((hook) => [hook.uuid, hook])),
      secrets: new Map(owners.map((owner, i) => [owner, secrets[i]])),
    };
  }

  private async attempt({ payload, attempts }: DueDelivery, targets: Targets): Promise<void> {
    const hook = targets.hooks.get(payload.hook_uuid);
    // Another owner's hook under this uuid is not this payload's: keep the URL it was queued with.
    const url = hook?.owner === payload.owner ? hook.definition.action.url : payload.url;
    const body = JSON.stringify(payload.body);
    const startedAt = this.clock.now();
    const secret = targets.secrets.get(payload.owner) ?? null;
    const headers = webhookHeaders(
      payload,
      body,
      toUnixSeconds(startedAt),
      secret,
      this.service.serverVersion,
    );
    const result = await this.sender.send({ url, headers, body, timeoutMs: this.settings.timeoutMs });
    const attempt: DeliveryAttempt = {
      at: startedAt,
      status_code: result.status,
      error: isSuccess(result.status) ? null : describeFailure(result),
      latency_ms: result.latencyMs,
    };
    const step = nextStep(result, attempts + 1, this.settings.retryScheduleMs, this.random);
    const id = payload.id;
    if (step.kind === 'delivered') {
      await this.recorder.record({ id, attempt, outcome: { state: 'delivered' } });
    } else if (step.kind === 'retry') {
      const outcome = { state: 'pending' as const, next_attempt_at: this.clock.now() + step.delayMs };
      await this.recorder.record({ id, attempt, outcome });
    } else {
      // A failed evaluation never interrupts the hook (compat.md section 6). A live one does, before
      // its failure is recorded: once the failure shows, a redeliver of it must not be failed too.
      if (payload.kind === 'live') await this.interrupt(payload, step.reason);
      await this.recorder.record({ id, attempt, outcome: { state: 'failed', reason: step.reason } });
    }
  }

  // The matcher hears of it at once, so no block after this queues payloads for the hook.
  private async interrupt(payload: OutgoingPayload, reason: string): Promise<void> {
    const updated = await this.hooks.update(payload.owner, payload.hook_uuid, interruptHook);
    if (updated) for (const listener of this.listeners) listener.hookChanged(updated.uuid, updated);
    await this.queue.failPending(
      payload.hook_uuid,
      `hook interrupted after payload ${payload.id} failed: ${reason}`,
      payload.id,
    );
    this.logger.error('hook interrupted', { hook: payload.hook_uuid, payload: payload.id, reason });
  }
}
