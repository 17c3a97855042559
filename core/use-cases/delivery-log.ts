import { inject, injectable } from 'inversify';
import type { DeliveryRecord } from '../delivery/delivery-record.js';
import { StackhooksError, hookNotFound } from '../hooks/errors.js';
import type { StoredHook } from '../hooks/record.js';
import { CLOCK, type Clock } from '../ports/clock.js';
import { DELIVERY_QUEUE, type DeliveryQueue } from '../ports/delivery-queue.js';
import { HOOK_REPOSITORY, type HookRepository } from '../ports/hook-repository.js';
import { INPUT_VALIDATOR, type InputValidator } from '../ports/input-validator.js';

/** A page of the delivery log as the route returns it. */
export type DeliveryListing = { limit: number; offset: number; total: number; results: DeliveryRecord[] };

/** Called after a redelivery is queued, so a sender can start it at once. */
export type RedeliveryListener = () => void;

/** The delivery log (beyond Hiro): what happened to each payload of a hook, and sending one again. */
@injectable()
export class DeliveryLog {
  private readonly listeners: RedeliveryListener[] = [];

  constructor(
    @inject(HOOK_REPOSITORY) private readonly hooks: HookRepository,
    @inject(DELIVERY_QUEUE) private readonly queue: DeliveryQueue,
    @inject(INPUT_VALIDATOR) private readonly input: InputValidator,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Be told when a payload is queued again. */
  onRedeliver(listener: RedeliveryListener): void {
    this.listeners.push(listener);
  }

  /** A page of the hook's payloads, newest first, optionally of one state. */
  async list(owner: string, uuid: unknown, query: unknown): Promise<DeliveryListing> {
    const id = (await this.ownedHook(owner, uuid)).uuid;
    const { state, offset, limit } = this.input.check('deliveries-query', query);
    const page = await this.queue.list(id, { state, offset, limit });
    return { limit, offset, total: page.total, results: page.results };
  }

  /**
   * Queue a logged payload again, with the same `webhook-id`. Refused while the hook is interrupted
   * or resuming: one payload sent then would arrive out of chain order; a resume sends every missed
   * block in order instead.
   */
  async redeliver(owner: string, uuid: unknown, deliveryId: unknown): Promise<DeliveryRecord> {
    const hook = await this.ownedHook(owner, uuid);
    const id = hook.uuid;
    const payloadId = this.input.check('delivery-id', deliveryId);
    if ((await this.queue.get(id, payloadId))?.kind === 'live') refuseOutOfOrder(hook);
    let record: DeliveryRecord | undefined;
    try {
      record = await this.queue.redeliver(id, payloadId, this.clock.now());
    } catch (err) {
      // The outbox keeps a delivered payload's body only for a while; past that it cannot resend it.
      if (err instanceof Error && err.name === 'BodyGoneError')
        throw new StackhooksError('conflict', err.message);
      throw err;
    }
    if (!record) throw new StackhooksError('not_found', `hook ${id} has no delivery ${payloadId}`);
    for (const listener of this.listeners) listener();
    return record;
  }

  private async ownedHook(owner: string, uuid: unknown): Promise<StoredHook> {
    const id = this.input.check('uuid', uuid).toLowerCase();
    const hook = await this.hooks.get(owner, id);
    if (!hook) throw hookNotFound(id);
    return hook;
  }
}

// A live payload redelivered on an interrupted or resuming hook would send an old block after newer ones.
function refuseOutOfOrder(hook: StoredHook): void {
  const { interruption, resuming } = hook.delivery ?? {};
  if (resuming && hook.status.enabled) {
    throw new StackhooksError(
      'conflict',
      `hook ${hook.uuid} is resuming: it is being sent the blocks it missed, in order, from block ` +
        `${resuming.from_block_height} (now at ${resuming.next_block_height}); redeliver once it has caught up`,
    );
  }
  if (hook.status.status === 'interrupted' && !hook.status.enabled) {
    const from = interruption ? ` from block ${interruption.first_missed_block_height}` : '';
    throw new StackhooksError(
      'conflict',
      `hook ${hook.uuid} is interrupted: a payload redelivered now would arrive out of order. Enable it with ` +
        `PATCH /me/${hook.uuid}/enabled {"enabled": true, "resume": true} to be sent every block it missed${from}, in order`,
    );
  }
}
