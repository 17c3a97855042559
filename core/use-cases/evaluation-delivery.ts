import { inject, injectable } from 'inversify';
import type { NormalizedBlock } from '../chain/block.js';
import type { StoredHook } from '../hooks/record.js';
import { matchesAnyFilter } from '../matching/index.js';
import { shapePayload } from '../payload/index.js';
import { CLOCK, type Clock } from '../ports/clock.js';
import { DELIVERY_QUEUE, type DeliveryQueue, type OutgoingPayload } from '../ports/delivery-queue.js';
import { ID_SOURCE, type IdSource } from '../ports/id-source.js';
import { LOGGER, type Logger } from '../ports/logger.js';
import { SERVICE_SETTINGS, type ServiceSettings } from '../settings.js';
import { ContractAbis } from './contract-abis.js';
import type { EvaluationRunner } from './evaluate-hook.js';

/**
 * Runs accepted evaluations: one archived block against one hook's filters, enabled or not; what
 * matches goes out as `{apply: [block], rollback: []}` through the normal delivery path. Counters and
 * status never change, and a failed evaluation delivery does not interrupt the hook.
 */
@injectable()
export class EvaluationDelivery implements EvaluationRunner {
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    @inject(DELIVERY_QUEUE) private readonly deliveries: DeliveryQueue,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(ID_SOURCE) private readonly ids: IdSource,
    @inject(SERVICE_SETTINGS) private readonly settings: ServiceSettings,
    @inject(LOGGER) private readonly logger: Logger,
    @inject(ContractAbis) private readonly abis: ContractAbis,
  ) {}

  /** Start the evaluation in the background (the route has already answered 204). */
  run(hook: StoredHook, block: NormalizedBlock): void {
    const work = this.evaluate(hook, block).catch((err: unknown) =>
      this.logger.error('evaluation failed', {
        hook: hook.uuid,
        block: block.block_identifier.hash,
        error: String(err),
      }),
    );
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
  }

  /** Resolves when every evaluation started so far has finished. */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** Match and queue; returns the payload queued, or undefined when nothing matched. */
  async evaluate(hook: StoredHook, archived: NormalizedBlock): Promise<OutgoingPayload | undefined> {
    const filters = hook.definition.filters.events;
    const txIndexes: number[] = [];
    archived.transactions.forEach((tx, index) => {
      if (matchesAnyFilter(filters, tx)) txIndexes.push(index);
    });
    if (txIndexes.length === 0) return undefined;
    // Calls that went unnamed when the block was archived are named from ABIs learned since.
    const block = await this.abis.nameCalls(archived);
    const payload: OutgoingPayload = {
      id: `msg_${this.ids.randomHex(16)}`,
      hook_uuid: hook.uuid,
      owner: hook.owner,
      url: hook.definition.action.url,
      kind: 'evaluation',
      apply: [{ ...block.block_identifier, tx_indexes: txIndexes }],
      rollback: [],
      body: shapePayload({
        hook: { uuid: hook.uuid, name: hook.definition.name, options: hook.definition.options },
        network: this.settings.network,
        apply: [{ block, txIndexes }],
        rollback: [],
      }),
      created_at: this.clock.now(),
    };
    await this.deliveries.enqueue([payload]);
    return payload;
  }
}
