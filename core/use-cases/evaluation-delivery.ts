import { inject, injectable } from 'inversify';
import type { NormalizedBlock } from '../chain/block.js';
import type { StoredHook } from '../hooks/record.js';
import { CLOCK, type Clock } from '../ports/clock.js';
import { DELIVERY_QUEUE, type DeliveryQueue, type OutgoingPayload } from '../ports/delivery-queue.js';
import { ID_SOURCE, type IdSource } from '../ports/id-source.js';
import { LOGGER, type Logger } from '../ports/logger.js';
import { SERVICE_SETTINGS, type ServiceSettings } from '../settings.js';
import { ContractAbis } from './contract-abis.js';
import { matchedTransactions, singleBlockPayload } from './block-payload.js';
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
    const txIndexes = matchedTransactions(hook, archived);
    if (txIndexes.length === 0) return undefined;
    // Calls that went unnamed when the block was archived are named from ABIs learned since.
    const block = await this.abis.nameCalls(archived);
    const payload = singleBlockPayload({
      hook,
      block,
      txIndexes,
      id: `msg_${this.ids.randomHex(16)}`,
      kind: 'evaluation',
      network: this.settings.network,
      createdAt: this.clock.now(),
    });
    await this.deliveries.enqueue([payload]);
    return payload;
  }
}
