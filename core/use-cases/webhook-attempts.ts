import type { DeliveryAttempt } from '../delivery/delivery-record.js';
import type { DeliveryCounters } from '../delivery/delivery-counters.js';
import type { Lane } from '../delivery/delivery-lanes.js';
import type { OriginCircuits } from '../delivery/origin-circuits.js';
import { describeFailure, isSuccess, nextStep } from '../delivery/retry-policy.js';
import { webhookHeaders } from '../delivery/webhook-headers.js';
import { interruptHook, toUnixSeconds } from '../hooks/lifecycle.js';
import type { StoredHook } from '../hooks/record.js';
import type { AccountStore } from '../ports/account-store.js';
import type { Clock } from '../ports/clock.js';
import type { DeliveryQueue, DueDelivery, DuePayload, PayloadMeta } from '../ports/delivery-queue.js';
import type { HookRepository } from '../ports/hook-repository.js';
import type { Logger } from '../ports/logger.js';
import { isFileTarget, type PayloadFiles } from '../ports/payload-files.js';
import type { SendResult, WebhookSender } from '../ports/webhook-sender.js';
import type { DeliverySettings, ServiceSettings } from '../settings.js';
import type { AttemptRecorder } from './attempt-recorder.js';
import { logAttempt, type AttemptReport } from './attempt-report.js';
import type { HookChangeListener } from './hook-registry.js';

/**
 * Asked before a payload is sent: a reason drops it unsent, failed with that reason (a cancelled
 * backfill's payload, a backfill block that left the canonical chain); undefined lets it go.
 */
export type SendCheck = (payload: PayloadMeta) => Promise<string | undefined>;

/** What a batch of attempts sends with, read once for the batch: hooks by uuid, secrets by owner. */
export type Targets = { hooks: Map<string, StoredHook>; secrets: Map<string, string | null> };

/** What one attempt needs from the dispatcher that runs it. */
export type AttemptContext = {
  queue: DeliveryQueue;
  sender: WebhookSender;
  /** Where a `file_append` predicate's payloads go: appended as lines instead of posted. */
  files: PayloadFiles;
  accounts: AccountStore;
  hooks: HookRepository;
  clock: Clock;
  logger: Logger;
  settings: DeliverySettings;
  service: ServiceSettings;
  random: () => number;
  recorder: AttemptRecorder;
  circuits: OriginCircuits;
  tally: DeliveryCounters;
  listeners: readonly HookChangeListener[];
  /** Told of every attempt sent (for metrics). */
  attemptListeners: readonly ((report: AttemptReport) => void)[];
  sendChecks: readonly SendCheck[];
};

/**
 * One attempt on a due payload, from the read of its target to the record of what it decided:
 * the origin's circuit may hold it back (put back unsent, with the reason); otherwise it is
 * signed and sent, the answer teaches the circuit, and the retry policy decides. When a live
 * payload's retries are used up, the hook is interrupted first.
 */
export class WebhookAttempts {
  constructor(private readonly ctx: AttemptContext) {}

  /** Read the hooks and consumer secrets of a batch of due payloads, one read each. */
  async readTargets(due: readonly DueDelivery[]): Promise<Targets> {
    const owners = [...new Set(due.map((d) => d.payload.owner))];
    const [hooks, secrets] = await Promise.all([
      this.ctx.hooks.getByUuids(due.map((d) => d.payload.hook_uuid)),
      Promise.all(owners.map((owner) => this.ctx.accounts.getConsumerSecret(owner))),
    ]);
    return {
      hooks: new Map(hooks.map((hook) => [hook.uuid, hook])),
      secrets: new Map(owners.map((owner, i) => [owner, secrets[i]])),
    };
  }

  /**
   * Attempt the payload (or hold it back) and record the outcome. `finish` gives the lane slot
   * back, told the receiver's time when there was an attempt, and returns the lane it ended in.
   */
  async run(
    { payload, attempts }: DueDelivery,
    targets: Targets,
    finish: (receiverMs?: number) => Lane,
  ): Promise<void> {
    const { ctx } = this;
    const hook = targets.hooks.get(payload.hook_uuid);
    // Another owner's hook under this uuid is not this payload's: keep the URL it was queued with.
    const url = hook?.owner === payload.owner ? hook.definition.action.url : payload.url;
    const origin = originOf(url);
    for (const check of ctx.sendChecks) {
      const reason = await check(payload);
      if (reason === undefined) continue;
      finish();
      await ctx.recorder.record({ id: payload.id, attempt: null, outcome: { state: 'failed', reason } });
      return;
    }
    const startedAt = ctx.clock.now();
    const verdict = ctx.circuits.check(origin, payload.hook_uuid, startedAt, ctx.settings.timeoutMs);
    if (!verdict.go) {
      finish();
      ctx.tally.heldForCircuit++;
      const outcome = {
        state: 'pending' as const,
        next_attempt_at: verdict.until,
        held_reason: verdict.reason,
      };
      await ctx.recorder.record({ id: payload.id, attempt: null, outcome });
      return;
    }
    const body = payload.body_text;
    const secret = targets.secrets.get(payload.owner) ?? null;
    const headers = webhookHeaders(
      payload,
      body,
      toUnixSeconds(startedAt),
      secret,
      ctx.service.serverVersion,
    );
    const authorization = hook?.owner === payload.owner ? v1Authorization(hook) : undefined;
    if (authorization !== undefined) headers.authorization = authorization;
    const result = isFileTarget(url)
      ? await ctx.files.append(url, body)
      : await ctx.sender.send({ url, headers, body, timeoutMs: ctx.settings.timeoutMs });
    const lane = finish(result.latencyMs);
    this.count(lane, result);
    this.learn(origin, payload.hook_uuid, result);
    const attempt: DeliveryAttempt = {
      at: startedAt,
      status_code: result.status,
      error: isSuccess(result.status) ? null : describeFailure(result),
      latency_ms: result.latencyMs,
      lane,
    };
    const step = nextStep(result, attempts + 1, ctx.settings.retryScheduleMs, ctx.random);
    const id = payload.id;
    const nextAttemptAt = step.kind === 'retry' ? ctx.clock.now() + step.delayMs : undefined;
    this.report({
      hook: payload.hook_uuid,
      payload: id,
      kind: payload.kind,
      attempt: attempts + 1,
      of: Math.max(ctx.settings.retryScheduleMs.length, attempts + 1),
      status: result.status,
      error: attempt.error,
      timedOut: result.timedOut === true,
      latencyMs: result.latencyMs,
      lane,
      outcome: step.kind === 'delivered' ? 'delivered' : step.kind === 'retry' ? 'retrying' : 'failed',
      ...(nextAttemptAt !== undefined && { nextAttemptAt }),
    });
    if (step.kind === 'delivered') {
      await ctx.recorder.record({ id, attempt, outcome: { state: 'delivered' } });
    } else if (step.kind === 'retry') {
      const outcome = { state: 'pending' as const, next_attempt_at: nextAttemptAt! };
      await ctx.recorder.record({ id, attempt, outcome });
    } else {
      // A failed evaluation never interrupts the hook, as in Hiro's API. A live one does, before
      // its failure is recorded: once the failure shows, a redeliver of it must not be failed too.
      if (payload.kind === 'live') await this.interrupt(payload, step.reason);
      await ctx.recorder.record({ id, attempt, outcome: { state: 'failed', reason: step.reason } });
    }
  }

  private report(report: AttemptReport): void {
    logAttempt(this.ctx.logger, report);
    for (const listener of this.ctx.attemptListeners) listener(report);
  }

  private count(lane: Lane, result: SendResult): void {
    const { tally } = this.ctx;
    tally.attempts[lane]++;
    if (isSuccess(result.status)) tally.delivered++;
    if (result.timedOut) tally.timeouts++;
  }

  // An attempt that held its slot and got no answer counts against its origin's circuit; any
  // answer in time (or a quick refusal, which costs nobody anything) closes it.
  private learn(origin: string, hook: string, result: SendResult): void {
    const { ctx } = this;
    const costly =
      result.status === null && (result.timedOut === true || result.latencyMs >= ctx.settings.slowAfterMs);
    const change = ctx.circuits.settle(origin, hook, costly ? 'costly' : 'answered', ctx.clock.now());
    if (change === 'opened') {
      ctx.tally.circuitsOpened++;
      ctx.logger.warn('circuit opened', { origin, ...ctx.circuits.view(origin) });
    } else if (change === 'closed') {
      ctx.tally.circuitsClosed++;
      ctx.logger.info('circuit closed', { origin });
    }
  }

  // The matcher hears of it at once, so no block after this queues payloads for the hook. The hook
  // remembers the first block it missed: the lowest this payload names (the payloads queued after
  // it carry later chain events).
  private async interrupt(payload: DuePayload, reason: string): Promise<void> {
    const { ctx } = this;
    const heights = [...payload.apply, ...payload.rollback].map((ref) => ref.index);
    const interruption = {
      first_missed_block_height: Math.min(...heights),
      interrupted_at: toUnixSeconds(ctx.clock.now()),
      reason,
    };
    const interrupt = (hook: StoredHook) =>
      interruptHook(hook, heights.length > 0 ? interruption : undefined);
    const updated = await ctx.hooks.update(payload.owner, payload.hook_uuid, interrupt);
    if (updated) for (const listener of ctx.listeners) listener.hookChanged(updated.uuid, updated);
    ctx.tally.hooksInterrupted++;
    await ctx.queue.failPending(
      payload.hook_uuid,
      `hook interrupted after payload ${payload.id} failed: ${reason}`,
      payload.id,
    );
    // At warn, like the failed attempts before it: the receiver failed, not the service.
    ctx.logger.warn('hook interrupted', {
      hook: payload.hook_uuid,
      payload: payload.id,
      first_missed_block_height: heights.length > 0 ? interruption.first_missed_block_height : null,
      reason,
    });
  }
}

/** The `authorization_header` of a hook registered through the Chainhook 1.x API, sent as 1.x sent it. */
function v1Authorization(hook: StoredHook): string | undefined {
  const action = hook.definition.chainhook_v1?.networks[hook.definition.network]?.then_that;
  return action && 'http_post' in action ? action.http_post.authorization_header : undefined;
}

/** The origin (scheme, host, port) a circuit is kept for; a file or an unparsable URL is its own origin. */
export function originOf(url: string): string {
  try {
    const { origin } = new URL(url);
    // A `file:` URL's origin is the opaque "null": each file stands alone.
    return origin === 'null' ? url : origin;
  } catch {
    return url;
  }
}
