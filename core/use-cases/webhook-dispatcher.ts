import { inject, injectable } from 'inversify';
import { newDeliveryCounters, type DeliveryCounters } from '../delivery/delivery-counters.js';
import { DeliveryLanes, type Lane } from '../delivery/delivery-lanes.js';
import { OriginCircuits } from '../delivery/origin-circuits.js';
import { receiverStanding, type ReceiverStanding } from '../delivery/receiver-standing.js';
import type { StoredHook } from '../hooks/record.js';
import { isStoreOutage } from '../hooks/errors.js';
import { ACCOUNT_STORE, type AccountStore } from '../ports/account-store.js';
import { CLOCK, type Clock } from '../ports/clock.js';
import { DELIVERY_QUEUE, type DeliveryQueue, type DueDelivery } from '../ports/delivery-queue.js';
import { HOOK_REPOSITORY, type HookRepository } from '../ports/hook-repository.js';
import { LOGGER, type Logger } from '../ports/logger.js';
import { PAYLOAD_FILES, type PayloadFiles } from '../ports/payload-files.js';
import { WEBHOOK_SENDER, type WebhookSender } from '../ports/webhook-sender.js';
import {
  DELIVERY_SETTINGS,
  SERVICE_SETTINGS,
  type DeliverySettings,
  type ServiceSettings,
} from '../settings.js';
import { AttemptRecorder } from './attempt-recorder.js';
import type { HookChangeListener } from './hook-registry.js';
import type { AttemptReport } from './attempt-report.js';
import { WebhookAttempts, originOf, type SendCheck, type Targets } from './webhook-attempts.js';

/** A payload taken from the queue, with the read of its batch's targets; `leave` ends its wait for a slot. */
type Taken = { delivery: DueDelivery; targets: Promise<Targets>; leave?: () => void };

/** Jitter for retry waits; replaced in tests to make schedules exact. */
export const DELIVERY_RANDOM = Symbol.for('stackhooks.DeliveryRandom');

/** Costly failures in a row that open an origin's circuit. */
const CIRCUIT_OPEN_AFTER = 3;
/** The longest an origin's circuit stays open. */
const CIRCUIT_MAX_OPEN_MS = 10 * 60_000;
/**
 * Hooks taken from the queue and not yet settled, at most, as a multiple of the lanes' slots. An
 * attempt gives its slot back when the receiver has answered, and its hook settles once the
 * outcome is durable; the slots go on sending meanwhile, so a slow write (an fsync, a database
 * round trip) costs no throughput, while this bounds the payloads held in memory for it.
 */
const UNSETTLED_PER_SLOT = 2;
/**
 * Free normal slots that start a round early, as a share of them: each round asks the queue once
 * (which walks past the busy hooks' heads), so slots freed one by one are gathered a few at a time.
 */
const REFILL_SHARE = 1 / 8;

/**
 * Sends queued payloads: one at a time per hook, in queue order. Attempts run in two lanes of
 * their own slots (`DeliveryLanes`): an attempt still running after `slowAfterMs` moves out of
 * the normal lane, and its hook's next attempts start in the slow lane, so a slow, hanging or
 * dripping receiver spends its own time and never a slot the others need. A circuit per origin
 * (`OriginCircuits`) holds back the hooks of an origin whose attempts keep getting no answer, one
 * probe at a time. A payload that cannot start (its lane is full, its circuit open) is put back
 * in the queue unsent, with the reason, visible in the delivery log.
 *
 * Payloads are taken in batches, and each batch reads its hooks' URLs and owners' consumer
 * secrets afresh, in one read each. Attempts that end together are recorded together. When a
 * live payload's retries are used up, the hook is interrupted and disabled and its other pending
 * payloads are failed, visibly, in the log.
 */
@injectable()
export class WebhookDispatcher {
  private readonly tally: DeliveryCounters = newDeliveryCounters();
  /** Hooks taken from the queue and not yet settled: attempting, waiting for a slot, or being put back. */
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Taken payloads of normal hooks waiting for a normal slot (they free within `slowAfterMs`). */
  private waiting: Taken[] = [];
  private readonly lanes: DeliveryLanes;
  /** The most hooks taken and not yet settled (attempting, waiting for a slot, or recording). */
  private readonly maxUnsettled: number;
  /** Free normal slots at which an answered attempt starts a round before its outcome is recorded. */
  private readonly refillAt: number;
  private readonly recorder: AttemptRecorder;
  private readonly circuits: OriginCircuits;
  private readonly listeners: HookChangeListener[] = [];
  private readonly settledListeners: (() => void)[] = [];
  private readonly attemptListeners: ((report: AttemptReport) => void)[] = [];
  private readonly sendChecks: SendCheck[] = [];
  private pumping: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private readonly attempts: WebhookAttempts;

  constructor(
    @inject(DELIVERY_QUEUE) private readonly queue: DeliveryQueue,
    @inject(WEBHOOK_SENDER) sender: WebhookSender,
    @inject(ACCOUNT_STORE) accounts: AccountStore,
    @inject(HOOK_REPOSITORY) hooks: HookRepository,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(LOGGER) private readonly logger: Logger,
    @inject(DELIVERY_SETTINGS) private readonly settings: DeliverySettings,
    @inject(SERVICE_SETTINGS) service: ServiceSettings,
    @inject(DELIVERY_RANDOM) random: () => number,
    @inject(PAYLOAD_FILES) files: PayloadFiles,
  ) {
    this.lanes = new DeliveryLanes({
      normalSlots: settings.concurrency,
      slowSlots: settings.slowConcurrency,
      slowAfterMs: settings.slowAfterMs,
    });
    this.maxUnsettled = UNSETTLED_PER_SLOT * (settings.concurrency + settings.slowConcurrency);
    this.refillAt = Math.max(1, Math.ceil(settings.concurrency * REFILL_SHARE));
    this.circuits = new OriginCircuits({
      openAfterFailures: CIRCUIT_OPEN_AFTER,
      openMs: settings.circuitOpenMs,
      maxOpenMs: Math.max(CIRCUIT_MAX_OPEN_MS, settings.circuitOpenMs),
    });
    this.recorder = new AttemptRecorder(queue);
    this.attempts = new WebhookAttempts({
      queue,
      sender,
      files,
      accounts,
      hooks,
      clock,
      logger,
      settings,
      service,
      random,
      recorder: this.recorder,
      circuits: this.circuits,
      tally: this.tally,
      listeners: this.listeners,
      attemptListeners: this.attemptListeners,
      sendChecks: this.sendChecks,
    });
  }

  /** Be told when delivery interrupts a hook. */
  onChange(listener: HookChangeListener): void {
    this.listeners.push(listener);
  }

  /** Be told of every attempt sent: its hook, status, latency and outcome (for metrics). */
  onAttempt(listener: (report: AttemptReport) => void): void {
    this.attemptListeners.push(listener);
  }

  /** Ask `check` before each payload is sent; a reason it gives drops the payload unsent, failed. */
  addSendCheck(check: SendCheck): void {
    this.sendChecks.push(check);
  }

  /** Be told after every attempt settles or starts (the next due or review time may have moved). */
  onSettled(listener: () => void): void {
    this.settledListeners.push(listener);
  }

  /** What delivery has done since start, as plain numbers for a metrics adapter (gauges read now). */
  get counters(): DeliveryCounters {
    const inFlight = this.lanes.inFlight();
    this.tally.now = {
      normalInFlight: inFlight.normal,
      slowInFlight: inFlight.slow,
      slowHooks: this.lanes.slowCount(),
      openCircuits: this.circuits.openCount(),
    };
    return this.tally;
  }

  /**
   * The lane a hook's next attempt starts in and its origin's circuit, as this process sees them;
   * undefined while both are in good standing (and always in a process that sends nothing).
   */
  receiverStanding(hook: StoredHook): ReceiverStanding | undefined {
    const origin = originOf(hook.definition.action.url);
    return receiverStanding(this.lanes.laneOf(hook.uuid), origin, this.circuits.view(origin));
  }

  /** Start every due payload that a free slot allows; calls while busy coalesce into one more round. */
  pump(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.pumping) {
      this.again = true;
      return this.pumping;
    }
    this.pumping = this.startDue()
      // A store outage is told once by the store's own health lines, not by each round it stops.
      .catch((err: unknown) => {
        if (isStoreOutage(err)) this.logger.debug('delivery round failed', { error: String(err) });
        else this.logger.error('delivery round failed', { error: String(err) });
      })
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
   * Move attempts that have run past the slow threshold out of the normal lane (their hooks count
   * as slow from now on) and start what the freed slots allow. The caller runs this at
   * `nextReviewAt` (core keeps no timers).
   */
  reviewLanes(): void {
    const moved = this.lanes.review(this.clock.now());
    if (moved.length === 0) return;
    this.tally.movedToSlowLane += moved.length;
    this.logger.debug('attempts moved to the slow lane', { hooks: moved });
    void this.pump();
  }

  /** When the next normal-lane attempt becomes slow (ms), for the caller's timer; undefined when none runs. */
  nextReviewAt(): number | undefined {
    return this.lanes.nextReviewAt();
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

  /** Start no new attempt; put back what waits for a slot; let the attempts in flight finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    const now = this.clock.now();
    for (const taken of this.waiting.splice(0)) {
      this.putBack(taken, now);
      taken.leave?.();
    }
    await this.idle();
  }

  private async startDue(): Promise<void> {
    for (;;) {
      this.startWaiting();
      const free = this.lanes.free();
      const room = Math.min(
        free.normal + free.slow - this.waiting.length,
        this.maxUnsettled - this.inFlight.size,
      );
      if (room <= 0 || this.stopped) return;
      const due = await this.queue.due(this.clock.now(), room, new Set(this.inFlight.keys()));
      if (due.length === 0) return;
      const targets = this.attempts.readTargets(due);
      // Swallowed here: each attempt that reads them handles a failed read.
      targets.catch(() => undefined);
      const now = this.clock.now();
      for (const delivery of due) this.take({ delivery, targets }, now);
      for (const listener of this.settledListeners) listener();
    }
  }

  // A taken payload starts in its lane, waits for a normal slot (they free within the slow
  // threshold), or, for a slow hook whose lane is full, goes back to the queue for a while.
  private take(taken: Taken, now: number): void {
    const hook = taken.delivery.payload.hook_uuid;
    if (this.lanes.hasRoom(hook)) return this.begin(taken);
    if (this.lanes.laneOf(hook) === 'normal') {
      this.inFlight.set(hook, new Promise<void>((resolve) => (taken.leave = resolve)));
      this.waiting.push(taken);
      return;
    }
    this.tally.heldForSlowLane++;
    const reason = `its receiver is slow and the slow lane's ${this.settings.slowConcurrency} slots are taken`;
    this.putBack(taken, now + this.settings.slowAfterMs, reason);
  }

  private startWaiting(): void {
    while (this.waiting.length > 0 && this.lanes.hasRoom(this.waiting[0].delivery.payload.hook_uuid)) {
      const taken = this.waiting.shift()!;
      this.begin(taken);
      taken.leave?.();
    }
  }

  private begin(taken: Taken): void {
    const { payload } = taken.delivery;
    const hook = payload.hook_uuid;
    this.lanes.start(hook, this.clock.now());
    const work = taken.targets
      .then(
        (read) =>
          this.attempts
            .run(taken.delivery, read, (ms) => this.slotFreed(hook, ms))
            .catch((err: unknown) => {
              this.lanes.finish(hook);
              this.logger.error('delivery attempt failed to record', { id: payload.id, error: String(err) });
            }),
        // Nothing was sent: the payload stays pending and is taken again.
        (err: unknown) => {
          this.lanes.finish(hook);
          this.logger.error('reading the hook and secret for a delivery failed', {
            id: payload.id,
            error: String(err),
          });
        },
      )
      .finally(() => this.settled(hook));
    this.inFlight.set(hook, work);
  }

  // The receiver answered (or nothing was sent): freed slots take other hooks' payloads without
  // waiting for this outcome to be recorded, while this hook stays busy until it is (so its next
  // payload waits for it). Every recorded outcome starts a round too, so none is missed.
  private slotFreed(hook: string, receiverMs?: number): Lane {
    const lane = this.lanes.finish(hook, receiverMs) ?? 'normal';
    if (lane === 'slow' || this.lanes.free().normal >= this.refillAt) void this.pump();
    return lane;
  }

  // Back to the queue unsent: due again at `until`, with the reason in the delivery log.
  private putBack(taken: Taken, until: number, reason?: string): void {
    const { payload } = taken.delivery;
    const outcome = {
      state: 'pending' as const,
      next_attempt_at: until,
      ...(reason && { held_reason: reason }),
    };
    const work = this.recorder
      .record({ id: payload.id, attempt: null, outcome })
      .catch((err: unknown) =>
        this.logger.error('putting a delivery back failed', { id: payload.id, error: String(err) }),
      )
      .finally(() => this.settled(payload.hook_uuid));
    this.inFlight.set(payload.hook_uuid, work);
  }

  private settled(hook: string): void {
    this.inFlight.delete(hook);
    void this.pump();
    for (const listener of this.settledListeners) listener();
  }
}
