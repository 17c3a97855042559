import { hash } from 'node:crypto';
import { inject, injectable } from 'inversify';
import { withinBlocks } from '../chainhook-v1/predicate.js';
import { ScopeIndex } from '../chainhook-v1/scope-index.js';
import { matchedIndexes } from '../chainhook-v1/scope-matcher.js';
import { queuedV1Body, shapeV1Payload } from '../chainhook-v1/shape-v1-payload.js';
import { ExpirySchedule } from '../hooks/expiry-schedule.js';
import { countLiveStep, rewindResume, toUnixSeconds } from '../hooks/lifecycle.js';
import { isLive, type LiveStep } from '../hooks/live-progress.js';
import { isResuming, type StoredHook } from '../hooks/record.js';
import { HookIndex } from '../matching/index.js';
import { shapePayload, type BlockMatch } from '../payload/index.js';
import type { ChainEvent, ChainUpdateOutcome, ChainUpdateSink } from '../ports/chain-update-sink.js';
import { CLOCK, type Clock } from '../ports/clock.js';
import { DELIVERY_QUEUE, type DeliveryQueue, type OutgoingPayload } from '../ports/delivery-queue.js';
import { HOOK_REPOSITORY, type HookRepository } from '../ports/hook-repository.js';
import { SERVICE_SETTINGS, type ServiceSettings } from '../settings.js';
import type { HookChangeListener } from './hook-registry.js';

/** What one hook gets from one chain event: made only for hooks with a match or a rollback. */
type HookShare = { hook: StoredHook; apply: BlockMatch[]; rollback: BlockMatch[] };

/** How many more live blocks a hook may evaluate before its evaluation limit expires it. */
function evaluationsLeft(hook: StoredHook): number {
  const limit = hook.definition.options?.expire_after_evaluations;
  return limit == null ? Infinity : Math.max(0, limit - hook.status.evaluated_block_count);
}

/** What a live payload id hashes after the hook's uuid: the event's number and its blocks. */
function eventIdentity(event: ChainEvent): string {
  const hashes = (blocks: ChainEvent['apply']) => blocks.map((b) => b.block_identifier.hash).join(',');
  return `|${event.eventId}|${hashes(event.apply)}|${hashes(event.rollback)}`;
}

/**
 * The `webhook-id` of a live payload: the same whenever the same chain event is processed again
 * (the event's identity is computed once for all of its payloads).
 */
function livePayloadId(hookUuid: string, identity: string): string {
  // One-shot `hash` of the joined text: the same digest as two updates, without a Hash object each.
  const digest = hash('sha256', hookUuid + identity, 'hex');
  return `msg_${digest.slice(0, 32)}`;
}

/**
 * The live stream: every canonical chain change is matched against every enabled hook through the
 * index, one payload per hook with a match is shaped and queued durably, and the lifecycle counters
 * move. Evaluations are one stream position the store keeps (every live hook evaluates every live
 * block), so a block writes only the hooks that change state: those with a payload (occurrences)
 * and those that reach their evaluation limit, found through the expiry schedule.
 */
@injectable()
export class LiveMatching implements ChainUpdateSink, HookChangeListener {
  private readonly index = new HookIndex();
  /** The live hooks registered through the Chainhook 1.x API, each with its compiled scope. */
  private readonly v1Scopes = new ScopeIndex();
  private readonly live = new Map<string, StoredHook>();
  /** Enabled hooks catching up in a resume: not matched live, but sent rollbacks of what they were sent. */
  private readonly resuming = new Map<string, StoredHook>();
  private readonly resumeListeners: ((hook: StoredHook) => void)[] = [];
  /** Whether this process matches chain events (only it runs resumes, in turn with them). */
  private ingesting = false;
  private turn: Promise<unknown> = Promise.resolve();
  /** Chain events and signer messages queued for their turn and not yet running. */
  private liveTurnsWaiting = 0;
  private readonly expiries = new ExpirySchedule();
  /** The stream position this process last stored (it is the only one that moves it). */
  private position = 0;
  /**
   * The earliest position a hook told of now may be scheduled at: past the step being stored, since
   * that step already chose the hooks it expires (a late hook is expired by the step after, and the
   * store shows it expired meanwhile).
   */
  private earliestExpiry = 1;
  /** The raw event log entry of the last step stored, as the store told at the load and since. */
  private lastStepEvent: number | undefined;
  private loaded: Promise<void> | undefined;
  /** Set when what this process keeps may be out of date: reloaded before the next chain event. */
  private stale = false;
  /**
   * Hooks told of while a step is being recorded: the copies the step returns were read before, so
   * they must not undo what was told (an interruption told meanwhile would make the hook live again).
   */
  private toldDuringStep: Set<string> | undefined;

  constructor(
    @inject(HOOK_REPOSITORY) private readonly hooks: HookRepository,
    @inject(DELIVERY_QUEUE) private readonly deliveries: DeliveryQueue,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(SERVICE_SETTINGS) private readonly settings: ServiceSettings,
  ) {}

  /** Keep the index in step with the registry: a change takes effect from the next chain event. */
  hookChanged(uuid: string, hook: StoredHook | undefined): void {
    this.toldDuringStep?.add(uuid);
    this.keep(uuid, hook);
  }

  private keep(uuid: string, hook: StoredHook | undefined): void {
    const resumes = hook?.status.enabled && hook.status.status !== 'expired' && isResuming(hook);
    if (hook && resumes) {
      this.resuming.set(uuid, hook);
      if (this.ingesting) for (const listener of this.resumeListeners) listener(hook);
    } else this.resuming.delete(uuid);
    // A live hook kept with this very definition is indexed by it already: a live step writes every
    // hook it gave a payload, each sharing the definition it had, so it is not indexed again.
    const indexed = hook !== undefined && this.live.get(uuid)?.definition === hook.definition;
    const v1 = hook?.definition.chainhook_v1?.networks[hook.definition.network];
    if (hook && v1 && isLive(hook)) {
      if (!indexed) this.v1Scopes.set(uuid, v1.if_this);
    } else this.v1Scopes.delete(uuid);
    if (hook && isLive(hook)) {
      this.live.set(uuid, hook);
      if (!indexed) this.index.add(uuid, hook.definition.filters.events);
      const left = evaluationsLeft(hook);
      if (left === Infinity) this.expiries.delete(uuid);
      else this.expiries.set(uuid, Math.max(this.earliestExpiry, this.position + left));
    } else {
      this.live.delete(uuid);
      this.index.remove(uuid);
      this.expiries.delete(uuid);
    }
  }

  /**
   * Forget the hooks and the stream position kept here and read them again from the store before
   * the next chain event: hook changes may have gone unheard (a lost feed connection), or another
   * process may have moved the stream on (it held the ingest lock meanwhile).
   */
  resync(): void {
    this.stale = true;
  }

  /** Be told of every hook whose resume should run now, in the process that matches chain events. */
  onResumeWanted(listener: (hook: StoredHook) => void): void {
    this.resumeListeners.push(listener);
  }

  /** This process matches chain events: run the resumes waiting (also done by the first chain event). */
  startResumes(): Promise<void> {
    return this.exclusive(() => this.startResumesNow());
  }

  /** Run `step` in turn with chain events: none is matched while it runs. */
  exclusive<T>(step: () => Promise<T>): Promise<T> {
    const run = this.turn.then(step);
    this.turn = run.catch(() => undefined);
    return run;
  }

  /** True while live work waits for its turn: a backfill step gives way after the chunk it is reading. */
  get liveWorkWaiting(): boolean {
    return this.liveTurnsWaiting > 0;
  }

  // A turn of live work: counted as waiting from the call until it runs.
  private liveTurn<T>(step: () => Promise<T>): Promise<T> {
    this.liveTurnsWaiting++;
    return this.exclusive(() => {
      this.liveTurnsWaiting--;
      return step();
    });
  }

  /** Run `step` with the live 1.x predicates' hooks, in turn with chain events (signer messages match against them). */
  withLiveV1Hooks<T>(step: (hooks: StoredHook[]) => Promise<T>): Promise<T> {
    return this.liveTurn(async () => {
      this.freshen();
      await this.load();
      const hooks = [...this.v1Scopes.keys()].flatMap((uuid) => this.live.get(uuid) ?? []);
      return step(hooks);
    });
  }

  /** How many hooks the index holds. */
  async liveHookCount(): Promise<number> {
    await this.load();
    return this.live.size;
  }

  /** Match one chain change, queue its payloads, then record the step and the hooks it changed. */
  chainUpdated(event: ChainEvent): Promise<ChainUpdateOutcome> {
    return this.liveTurn(async () => {
      this.freshen();
      if (!this.ingesting) await this.startResumesNow();
      return this.matchEvent(event);
    });
  }

  // Here, between chain events, so no step is using the index or the schedule being rebuilt.
  private freshen(): void {
    if (!this.stale) return;
    this.stale = false;
    for (const uuid of [...this.live.keys(), ...this.resuming.keys()]) this.keep(uuid, undefined);
    this.loaded = undefined;
  }

  private async startResumesNow(): Promise<void> {
    this.freshen();
    await this.load();
    this.ingesting = true;
    for (const hook of this.resuming.values()) for (const listener of this.resumeListeners) listener(hook);
  }

  private async matchEvent(event: ChainEvent): Promise<ChainUpdateOutcome> {
    await this.load();
    const shares = await this.share(event);
    const now = this.clock.now();
    const identity = eventIdentity(event);
    const payloads: OutgoingPayload[] = [];
    let hooksMatched = 0;
    for (const share of shares.values()) {
      if (share.apply.length > 0) hooksMatched++;
      if (share.apply.length === 0 && share.rollback.length === 0) continue;
      payloads.push(this.payloadFor(share, identity, now));
    }
    const queued = payloads.length > 0 ? this.deliveries.enqueue(payloads) : undefined;
    // The store prepares the step while the payloads are queued, and stores it only once they are.
    const [enqueued, counted] = await Promise.allSettled([
      queued,
      this.count(shares, new Set(payloads.map((p) => p.hook_uuid)), event, now, queued),
    ]);
    if (enqueued.status === 'rejected') throw enqueued.reason;
    if (counted.status === 'rejected') throw counted.reason;
    return { hooksMatched, payloadsQueued: payloads.length };
  }

  private async share(event: ChainEvent): Promise<Map<string, HookShare>> {
    const shares = new Map<string, HookShare>();
    const shareOf = (hook: StoredHook) => {
      let share = shares.get(hook.uuid);
      if (!share) {
        share = { hook, apply: [], rollback: [] };
        shares.set(hook.uuid, share);
      }
      return share;
    };
    if (event.rollback.length > 0) {
      // A rollback names only blocks a hook was sent, with the transactions it was sent.
      const sent = await this.deliveries.sentApplies(event.rollback.map((b) => b.block_identifier.hash));
      for (const block of event.rollback) {
        for (const [uuid, blocks] of sent) {
          const txIndexes = blocks.get(block.block_identifier.hash);
          const hook = this.live.get(uuid) ?? this.resuming.get(uuid);
          if (hook && txIndexes) shareOf(hook).rollback.push({ block, txIndexes });
        }
      }
    }
    for (const block of event.apply) {
      this.index.forEachMatch(block, (uuid, txIndexes) => {
        const hook = this.live.get(uuid);
        if (hook) shareOf(hook).apply.push({ block, txIndexes });
      });
      this.v1Scopes.forEachMatch(block, (uuid, hit) => {
        const hook = this.live.get(uuid);
        const part = hook?.definition.chainhook_v1?.networks[hook.definition.network];
        if (hook && part && withinBlocks(part, block.block_identifier.index))
          shareOf(hook).apply.push({ block, txIndexes: matchedIndexes(block, hit) });
      });
    }
    await this.cutAtEvaluationLimits(shares, event);
    return shares;
  }

  // A hook at its evaluation limit part-way through this event sees only the blocks before it. The
  // counters in `live` are as of the hook's last change, so the few matched hooks with a limit are read.
  private async cutAtEvaluationLimits(shares: Map<string, HookShare>, event: ChainEvent): Promise<void> {
    const limited = [...shares.keys()].filter((uuid) => this.expiries.has(uuid));
    if (limited.length === 0 || event.apply.length === 0) return;
    const current = new Map((await this.hooks.getByUuids(limited)).map((hook) => [hook.uuid, hook]));
    for (const uuid of limited) {
      const hook = current.get(uuid);
      const evaluations = hook && isLive(hook) ? evaluationsLeft(hook) : 0;
      if (evaluations >= event.apply.length) continue;
      const share = shares.get(uuid)!;
      share.apply = share.apply.filter(({ block }) => event.apply.indexOf(block) < evaluations);
    }
  }

  private payloadFor(share: HookShare, identity: string, now: number): OutgoingPayload {
    const { hook } = share;
    const v1 = hook.definition.chainhook_v1?.networks[hook.definition.network];
    const body = v1
      ? queuedV1Body(
          shapeV1Payload({
            uuid: hook.uuid,
            predicate: v1,
            network: this.settings.network,
            apply: share.apply,
            rollback: share.rollback,
          }),
        )
      : shapePayload({
          hook: { uuid: hook.uuid, name: hook.definition.name, options: hook.definition.options },
          network: this.settings.network,
          apply: share.apply,
          rollback: share.rollback,
        });
    return {
      id: livePayloadId(hook.uuid, identity),
      hook_uuid: hook.uuid,
      owner: hook.owner,
      url: hook.definition.action.url,
      kind: 'live',
      apply: share.apply.map(({ block, txIndexes }) => ({
        ...block.block_identifier,
        tx_indexes: [...txIndexes],
      })),
      rollback: share.rollback.map(({ block }) => block.block_identifier),
      body,
      created_at: now,
    };
  }

  // The step moves every live hook's evaluations at once; the hooks written are those that got a
  // payload (occurrences) and those the step brings to their evaluation limit (they expire). It is
  // stored only once `queued` (its payloads) is.
  private async count(
    shares: Map<string, HookShare>,
    withPayload: Set<string>,
    event: ChainEvent,
    now: number,
    queued: Promise<void> | undefined,
  ): Promise<void> {
    // A change published again whose step the store holds already (the stop came after the step
    // was stored and before its entry was marked processed): its blocks were counted once.
    if (event.republished && event.eventId > 0 && event.eventId === this.lastStepEvent) return;
    const heights = event.apply.map((b) => b.block_identifier.index);
    const step: LiveStep = {
      blocks: heights.length,
      height: heights.at(-1) ?? 0,
      at: toUnixSeconds(now),
      ...(event.eventId > 0 && { eventId: event.eventId }),
    };
    const target = this.position + step.blocks;
    const reorgAt =
      event.rollback.length > 0
        ? Math.min(...event.rollback.map((b) => b.block_identifier.index))
        : undefined;
    // A resume already past the reorg sends the new blocks from there again.
    const rewound = [...this.resuming.values()].filter(
      (hook) => reorgAt !== undefined && hook.delivery!.resuming!.next_block_height > reorgAt,
    );
    const uuids = new Set([
      ...withPayload,
      ...this.expiries.due(this.position, target),
      ...rewound.map((h) => h.uuid),
    ]);
    if (step.blocks === 0 && uuids.size === 0) return;
    this.earliestExpiry = target + 1;
    const told = new Set<string>();
    this.toldDuringStep = told;
    try {
      const changed = await this.hooks.recordLiveStep(
        step,
        [...uuids],
        (stored) => {
          if (isResuming(stored)) return reorgAt === undefined ? stored : rewindResume(stored, reorgAt);
          const share = withPayload.has(stored.uuid) ? shares.get(stored.uuid) : undefined;
          const top = share && (share.apply.at(-1)?.block ?? share.rollback[0]?.block);
          const occurrence = share && (top ? top.block_identifier.index : (heights.at(-1) ?? 0));
          return countLiveStep(stored, heights, occurrence, now);
        },
        queued,
      );
      this.position = target;
      this.lastStepEvent = step.eventId;
      for (const hook of changed) if (!told.has(hook.uuid)) this.keep(hook.uuid, hook);
    } finally {
      this.toldDuringStep = undefined;
      this.earliestExpiry = this.position + 1;
    }
  }

  private load(): Promise<void> {
    this.loaded ??= Promise.all([this.hooks.liveProgress(), this.hooks.listAll()]).then(
      ([progress, all]) => {
        this.position = progress.evaluated;
        this.lastStepEvent = progress.event_id;
        this.earliestExpiry = this.position + 1;
        // Hooks told of before the load were scheduled without the position: schedule them again.
        const told = [...this.live.values()];
        for (const hook of all) if (!this.live.has(hook.uuid)) this.keep(hook.uuid, hook);
        for (const hook of told) this.keep(hook.uuid, hook);
      },
      (err: unknown) => {
        // A store that was unavailable is asked again on the next call, not remembered as failed.
        this.loaded = undefined;
        throw err;
      },
    );
    return this.loaded;
  }
}
