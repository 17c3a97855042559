import { inject, injectable } from 'inversify';
import type { HookDefinition } from '../hooks/definition.js';
import { StackhooksError, hookNotFound, invalidInput } from '../hooks/errors.js';
import { canBulkEnable, createHook, setEnabled, updateDefinition } from '../hooks/lifecycle.js';
import type { ReceiverStanding } from '../delivery/receiver-standing.js';
import { toHookRecord, type HookRecord, type StoredHook } from '../hooks/record.js';
import { CLOCK, type Clock } from '../ports/clock.js';
import { DELIVERY_QUEUE, type DeliveryQueue } from '../ports/delivery-queue.js';
import { HOOK_REPOSITORY, type HookRepository } from '../ports/hook-repository.js';
import { ID_SOURCE, type IdSource } from '../ports/id-source.js';
import { INPUT_VALIDATOR, type InputValidator } from '../ports/input-validator.js';
import { TARGET_GUARD, type TargetGuard } from '../ports/target-guard.js';
import { SERVICE_SETTINGS, type ServiceSettings } from '../settings.js';

/** A page of hooks as the list route returns it. */
export type HookListing = { limit: number; offset: number; total: number; results: HookRecord[] };

/** What happens to a hook when its owner changes it; the delivery side listens to drop its queue. */
export interface HookChangeListener {
  /** Called after a hook is created, changed, enabled, disabled or deleted (`hook` undefined on delete). */
  hookChanged(uuid: string, hook: StoredHook | undefined): void;
}

/** How delivery in this process treats a hook's receiver, when that is worth showing in its record. */
export type ReceiverStandings = (hook: StoredHook) => ReceiverStanding | undefined;

/** Register, list, read, change, enable and delete hooks, one owner at a time. */
@injectable()
export class HookRegistry {
  private readonly listeners: HookChangeListener[] = [];
  private standings: ReceiverStandings = () => undefined;

  constructor(
    @inject(HOOK_REPOSITORY) private readonly hooks: HookRepository,
    @inject(INPUT_VALIDATOR) private readonly input: InputValidator,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(ID_SOURCE) private readonly ids: IdSource,
    @inject(SERVICE_SETTINGS) private readonly settings: ServiceSettings,
    @inject(DELIVERY_QUEUE) private readonly deliveries: DeliveryQueue,
    @inject(TARGET_GUARD) private readonly targets: TargetGuard,
  ) {}

  /** Be told of every change made through this registry. */
  onChange(listener: HookChangeListener): void {
    this.listeners.push(listener);
  }

  /** Show each hook's receiver standing, as the process's delivery sees it, in the records returned. */
  showReceivers(standings: ReceiverStandings): void {
    this.standings = standings;
  }

  /** Register a new hook from an unchecked definition. */
  async register(owner: string, body: unknown): Promise<HookRecord> {
    const definition = this.input.check('definition', body);
    this.checkNetwork(definition);
    await this.checkTarget(definition.action.url);
    const hook = createHook(owner, this.ids.uuid(), definition, this.clock.now());
    const stored = await this.hooks.insert(hook, this.settings.maxHooksPerOwner);
    if (!stored) {
      throw new StackhooksError(
        'limit_exceeded',
        `owner already has the maximum of ${this.settings.maxHooksPerOwner} hooks; delete one before registering another`,
      );
    }
    // The listeners keep the store's version (its definition the store's own), not a second copy.
    this.notify(stored.uuid, stored);
    return this.record(hook);
  }

  /** A page of the owner's hooks, oldest first, narrowed by the query's filters when it has any. */
  async list(owner: string, query: unknown): Promise<HookListing> {
    const { offset, limit, ...filter } = this.input.check('list-query', query);
    const page = await this.hooks.list(owner, offset, limit, filter);
    return { limit, offset, total: page.total, results: page.results.map((hook) => this.record(hook)) };
  }

  /** One of the owner's hooks. */
  async get(owner: string, uuid: unknown): Promise<HookRecord> {
    const id = this.input.check('uuid', uuid).toLowerCase();
    const hook = await this.hooks.get(owner, id);
    if (!hook) throw hookNotFound(id);
    return this.record(hook);
  }

  /** Replace the top-level fields the update carries; the merged definition must be valid. */
  async update(owner: string, uuid: unknown, body: unknown): Promise<HookRecord> {
    const id = this.input.check('uuid', uuid).toLowerCase();
    const update = this.input.check('definition-update', body);
    if (update.action) await this.checkTarget(update.action.url);
    const hook = await this.hooks.update(owner, id, (current) => {
      const next = updateDefinition(current, update);
      this.input.check('definition', next.definition);
      this.checkNetwork(next.definition);
      return next;
    });
    if (!hook) throw hookNotFound(id);
    this.notify(hook.uuid, hook);
    return this.record(hook);
  }

  /** Remove the hook; nothing more is delivered for it. */
  async delete(owner: string, uuid: unknown): Promise<void> {
    const id = this.input.check('uuid', uuid).toLowerCase();
    if (!(await this.hooks.delete(owner, id))) throw hookNotFound(id);
    this.notify(id, undefined);
    await this.deliveries.dropHook(id);
  }

  /**
   * Enable or disable one hook; enabling an expired hook is a conflict. `resume` (a stackhooks
   * extension) enables an interrupted hook from its first missed block instead of the tip. Enabling
   * an interrupted hook from the tip returns the first block it skips (`missedFrom`): a backfill
   * from there sends what it missed.
   */
  async enable(owner: string, uuid: unknown, body: unknown): Promise<{ missedFrom?: number }> {
    const id = this.input.check('uuid', uuid).toLowerCase();
    const { enabled, resume } = this.input.check('enable', body);
    if (resume && !enabled) {
      throw invalidInput([{ field: 'resume', message: 'only applies when enabling ("enabled": true)' }]);
    }
    let missedFrom: number | undefined;
    const hook = await this.hooks.update(owner, id, (current) => {
      const { interruption, resuming } = current.delivery ?? {};
      if (enabled && !resume && !current.status.enabled)
        missedFrom = resuming?.next_block_height ?? interruption?.first_missed_block_height;
      return setEnabled(current, enabled, resume);
    });
    if (!hook) throw hookNotFound(id);
    this.notify(hook.uuid, hook);
    return missedFrom === undefined ? {} : { missedFrom };
  }

  /** Enable or disable every hook the filters select (AND); expired hooks are skipped when enabling. */
  async bulkEnable(owner: string, body: unknown): Promise<{ updated_uuids: string[] }> {
    const { enabled, filters } = this.input.check('bulk-enable', body);
    // Stored uuids are lowercase; a client may send them in either case.
    const uuids = filters?.uuids?.map((u) => u.toLowerCase());
    const changed = await this.hooks.updateMany({ owner, ...filters, ...(uuids && { uuids }) }, (current) => {
      if (enabled && !canBulkEnable(current)) return undefined;
      return setEnabled(current, enabled);
    });
    for (const hook of changed) this.notify(hook.uuid, hook);
    return { updated_uuids: changed.map((hook) => hook.uuid) };
  }

  private record(hook: StoredHook): HookRecord {
    return toHookRecord(hook, this.standings(hook));
  }

  private checkNetwork(definition: HookDefinition): void {
    if (definition.network !== this.settings.network) {
      throw invalidInput([
        {
          field: 'network',
          message: `is ${definition.network}, but this deployment serves ${this.settings.network}`,
        },
      ]);
    }
  }

  // Webhooks must not reach loopback, private, link-local or metadata addresses (unless allowed).
  private async checkTarget(url: string): Promise<void> {
    const refusal = await this.targets.refusal(url);
    if (refusal) throw invalidInput([{ field: 'action.url', message: refusal }]);
  }

  private notify(uuid: string, hook: StoredHook | undefined): void {
    for (const listener of this.listeners) listener.hookChanged(uuid, hook);
  }
}
