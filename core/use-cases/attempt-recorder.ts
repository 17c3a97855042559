import type { AttemptReport, DeliveryQueue } from '../ports/delivery-queue.js';

type Waiting = { report: AttemptReport; resolve: () => void; reject: (err: unknown) => void };

/**
 * Writes attempt reports to the outbox in batches (group commit): a report that arrives while a
 * batch is being written waits for it, then goes with every other report that arrived meanwhile in
 * one `recordAttempts`. Alone, a report is written at once; under load a worker pays one write
 * (one round trip to a shared database, one fsync on disk) for many attempts, with no timer.
 */
export class AttemptRecorder {
  private waiting: Waiting[] = [];
  private writing: Promise<void> | undefined;

  constructor(private readonly queue: DeliveryQueue) {}

  /** Record a report with the next batch; resolves once it is durable, rejects if its batch failed. */
  record(report: AttemptReport): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ report, resolve, reject });
      this.writing ??= this.writeAll();
    });
  }

  private async writeAll(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting;
      this.waiting = [];
      try {
        await this.queue.recordAttempts(batch.map((w) => w.report));
        for (const waiter of batch) waiter.resolve();
      } catch (err) {
        for (const waiter of batch) waiter.reject(err);
      }
    }
    this.writing = undefined;
  }
}
