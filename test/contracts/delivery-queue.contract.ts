import type { DeliveryQueue } from '../../core/ports/delivery-queue.js';
import { deliveryQueueAttemptCases } from './delivery-queue-attempts.contract.js';
import { deliveryQueueFailingHookCases } from './delivery-queue-failing-hooks.contract.js';
import { deliveryQueueLogCases } from './delivery-queue-log.contract.js';
import { deliveryQueueOrderCases } from './delivery-queue-order.contract.js';
import { deliveryQueueRedeliverCases } from './delivery-queue-redeliver.contract.js';
import { deliveryQueueReopenCases } from './delivery-queue-reopen.contract.js';
import { deliveryQueueSentAppliesCases } from './delivery-queue-sent-applies.contract.js';

// Adapter tests and benches build their payloads from here, beside the contract they run.
export { T0, asDue, asQueued, attemptAt, drain, outgoing, sharingBlocks } from './delivery-queue-fixtures.js';

/** An outbox under test; `reopen` (when it persists) closes it and opens the same data again. */
export type DeliveryQueueSubject = {
  queue: DeliveryQueue;
  reopen?: () => Promise<DeliveryQueue>;
  cleanup(): Promise<void>;
};

/** The behaviour every DeliveryQueue must show; run it against each adapter with a fresh, empty outbox. */
export function deliveryQueueContract(
  name: string,
  open: () => Promise<DeliveryQueueSubject>,
  options: { persistent?: boolean } = { persistent: true },
): void {
  describe(`DeliveryQueue contract: ${name}`, () => {
    let subject: DeliveryQueueSubject;
    beforeEach(async () => {
      subject = await open();
    });
    afterEach(async () => subject.cleanup());

    deliveryQueueOrderCases(() => subject);
    deliveryQueueAttemptCases(() => subject);
    deliveryQueueSentAppliesCases(() => subject);
    deliveryQueueFailingHookCases(() => subject);
    deliveryQueueLogCases(() => subject);
    deliveryQueueRedeliverCases(() => subject);
    deliveryQueueReopenCases(() => subject, options);
  });
}
