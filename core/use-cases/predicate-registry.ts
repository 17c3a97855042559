import { inject, injectable } from 'inversify';
import { newBackfill, type StoredBackfill } from '../backfill/backfill.js';
import { backfillId } from '../backfill/backfill-payload.js';
import { parsePredicate } from '../chainhook-v1/parse-predicate.js';
import type { NetworkPredicate, StacksPredicate } from '../chainhook-v1/predicate.js';
import { toPredicateRecord, type PredicateRecord } from '../chainhook-v1/predicate-record.js';
import type { HookDefinition } from '../hooks/definition.js';
import { StackhooksError } from '../hooks/errors.js';
import { createHook } from '../hooks/lifecycle.js';
import type { StoredHook } from '../hooks/record.js';
import { BACKFILL_STORE, type BackfillStore } from '../ports/backfill-store.js';
import { BLOCK_STORE, type BlockStore } from '../ports/block-store.js';
import { CLOCK, type Clock } from '../ports/clock.js';
import { DELIVERY_QUEUE, type DeliveryQueue } from '../ports/delivery-queue.js';
import { HOOK_REPOSITORY, type HookRepository } from '../ports/hook-repository.js';
import { ID_SOURCE, type IdSource } from '../ports/id-source.js';
import { PAYLOAD_FILES, type PayloadFiles } from '../ports/payload-files.js';
import { TARGET_GUARD, type TargetGuard } from '../ports/target-guard.js';
import { SERVICE_SETTINGS, type ServiceSettings } from '../settings.js';
import { BACKFILL_RUNNER, type BackfillRunner } from './hook-backfills.js';
import type { HookChangeListener } from './hook-registry.js';

// 1.x listed every predicate; an owner holds at most this many hooks anyway.
const LISTING_LIMIT = 100_000;

/**
 * Chainhook 1.x's predicates API over the hook store: a 1.x predicate is kept as a hook of one
 * owner, with no 2.0 filters and the predicate beside them, so that it is stored, counted, delivered
 * and interrupted like any hook, on either store.
 */
@injectable()
export class PredicateRegistry {
  private readonly listeners: HookChangeListener[] = [];
  // Registrations run one at a time, so two requests for one uuid get a 200 and a 409, never a store error.
  private registering: Promise<unknown> = Promise.resolve();

  constructor(
    @inject(HOOK_REPOSITORY) private readonly hooks: HookRepository,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(SERVICE_SETTINGS) private readonly settings: ServiceSettings,
    @inject(DELIVERY_QUEUE) private readonly deliveries: DeliveryQueue,
    @inject(TARGET_GUARD) private readonly targets: TargetGuard,
    @inject(PAYLOAD_FILES) private readonly files: PayloadFiles,
    @inject(BLOCK_STORE) private readonly blocks: BlockStore,
    @inject(BACKFILL_STORE) private readonly backfills: BackfillStore,
    @inject(ID_SOURCE) private readonly ids: IdSource,
    @inject(BACKFILL_RUNNER) private readonly runner: BackfillRunner,
  ) {}

  /** Be told of every predicate registered or deleted here. */
  onChange(listener: HookChangeListener): void {
    this.listeners.push(listener);
  }

  /**
   * Register a predicate for `owner`, enabled at once as in 1.x; its network's part is the one this
   * service follows. A `validation` error carries 1.x's reason; `conflict` when the uuid is in use.
   */
  async register(owner: string, body: unknown): Promise<string> {
    const read = parsePredicate(body);
    if (!read.ok) throw new StackhooksError('validation', read.problems.join('; '));
    const predicate = read.predicate;
    const part = predicate.networks[this.settings.network];
    if (!part)
      throw new StackhooksError(
        'validation',
        `networks.${this.settings.network} is missing: this service follows ${this.settings.network}`,
      );
    const url = await this.targetOf(part);
    const run = this.registering.then(() => this.insert(owner, predicate, part, url));
    this.registering = run.catch(() => undefined);
    return run;
  }

  /** Every predicate of `owner`, oldest first. */
  async list(owner: string): Promise<PredicateRecord[]> {
    const [page, progress] = await Promise.all([
      this.hooks.list(owner, 0, LISTING_LIMIT),
      this.hooks.liveProgress(),
    ]);
    const predicates = page.results.filter((hook) => hook.definition.chainhook_v1);
    const scans = await Promise.all(predicates.map((hook) => this.scanOf(hook)));
    return predicates.map((hook, i) => toPredicateRecord(hook, progress.last_height, scans[i]));
  }

  /** One predicate of `owner`, or undefined. */
  async get(owner: string, uuid: string): Promise<PredicateRecord | undefined> {
    const [hook, progress] = await Promise.all([this.hooks.get(owner, uuid), this.hooks.liveProgress()]);
    if (!hook?.definition.chainhook_v1) return undefined;
    return toPredicateRecord(hook, progress.last_height, await this.scanOf(hook));
  }

  // The backfill of the predicate's history (its oldest: the one its registration queued), if any.
  private async scanOf(hook: StoredHook): Promise<StoredBackfill | undefined> {
    const part = hook.definition.chainhook_v1!.networks[hook.definition.network];
    if (part?.start_block === undefined) return undefined;
    return (await this.backfills.list(hook.uuid)).at(-1);
  }

  /** Remove a predicate of `owner` and what waits to be delivered for it; false when there is none. */
  async delete(owner: string, uuid: string): Promise<boolean> {
    const hook = await this.hooks.get(owner, uuid);
    if (!hook?.definition.chainhook_v1 || !(await this.hooks.delete(owner, uuid))) return false;
    this.notify(uuid, undefined);
    await this.deliveries.dropHook(uuid);
    return true;
  }

  // Where the predicate's payloads go: its receiver's URL, or the `file:` URL of its file in the
  // operator's folder. A target that may not be used is a validation error naming the field.
  private async targetOf(part: NetworkPredicate): Promise<string> {
    const at = `networks.${this.settings.network}.then_that`;
    if ('file_append' in part.then_that) {
      const placed = await this.files.place(part.then_that.file_append.path);
      if ('refusal' in placed)
        throw new StackhooksError('validation', `${at}.file_append.path ${placed.refusal}`);
      return placed.url;
    }
    const refusal = await this.targets.refusal(part.then_that.http_post.url);
    if (refusal) throw new StackhooksError('validation', `${at}.http_post.url ${refusal}`);
    return part.then_that.http_post.url;
  }

  private async insert(
    owner: string,
    predicate: StacksPredicate,
    part: NetworkPredicate,
    url: string,
  ): Promise<string> {
    if (await this.hooks.getByUuid(predicate.uuid))
      throw new StackhooksError('conflict', 'Predicate uuid already in use');
    const definition = this.definitionOf(predicate, part, url);
    const hook = createHook(owner, predicate.uuid, definition, this.clock.now());
    const stored = await this.hooks.insert(hook, this.settings.maxHooksPerOwner);
    if (!stored) {
      throw new StackhooksError(
        'limit_exceeded',
        `the predicates' owner already has the maximum of ${this.settings.maxHooksPerOwner} hooks`,
      );
    }
    // The listeners keep the store's version (its definition the store's own), not a second copy.
    this.notify(stored.uuid, stored);
    await this.queueHistory(hook, part);
    return hook.uuid;
  }

  // 1.x scanned a predicate's history from start_block before streaming it: here the backfill
  // engine does, over start_block..min(end_block, tip). The tip is read once the hook streams, so a
  // block arriving meanwhile is sent by both rather than by neither.
  private async queueHistory(hook: StoredHook, part: NetworkPredicate): Promise<void> {
    if (part.start_block === undefined) return;
    const tip = (await this.blocks.tip())?.height;
    if (tip === undefined || part.start_block > tip) return;
    const from = part.start_block;
    const to = Math.min(part.end_block ?? tip, tip);
    const id = backfillId(this.ids.randomHex(8));
    const now = this.clock.now();
    await this.backfills.create(newBackfill({ id, hookUuid: hook.uuid, owner: hook.owner, from, to, now }));
    this.runner.wake();
  }

  private definitionOf(predicate: StacksPredicate, part: NetworkPredicate, url: string): HookDefinition {
    return {
      name: predicate.name.slice(0, 255),
      version: '1',
      chain: 'stacks',
      network: this.settings.network,
      filters: { events: [] },
      options: {
        enable_on_registration: true,
        ...(part.expire_after_occurrence !== undefined && {
          expire_after_occurrences: part.expire_after_occurrence,
        }),
      },
      action: { type: 'http_post', url },
      chainhook_v1: predicate,
    };
  }

  private notify(uuid: string, hook: StoredHook | undefined): void {
    for (const listener of this.listeners) listener.hookChanged(uuid, hook);
  }
}
