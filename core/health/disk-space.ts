import type { Clock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';
import { isOutOfSpace, type DiskSpaceReport } from '../storage/write-failure.js';
import type { ServiceConditions } from './service-conditions.js';

/** The condition raised while the disk of the data folder has no room for a store's writes. */
export const STORAGE_FULL = 'storage_full';

/**
 * Raises `storage_full` while the last write of any file store found the disk full, and clears it
 * once each of them has written again: the stores retry by themselves (the node posts again, block
 * processing and delivery go on), so the condition ends with no restart when space is freed.
 * Counted per store, so one store writing small records while another still fails does not flap.
 */
export class DiskSpaceWatch implements DiskSpaceReport {
  private readonly full = new Set<string>();

  constructor(
    private readonly conditions: ServiceConditions,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Note a failed write; only an out-of-space failure raises the condition. */
  failed(store: string, error: unknown): void {
    if (!isOutOfSpace(error) || this.full.has(store)) return;
    this.full.add(store);
    if (this.conditions.raise(STORAGE_FULL, this.reason(), this.clock.now())) {
      this.logger.error('disk full; pausing what needs to write', { store, error: String(error) });
    } else this.logger.warn('disk full for another store', { store });
  }

  /** Note a write that reached the disk; the last store to write again clears the condition. */
  wrote(store: string): void {
    if (!this.full.delete(store)) return;
    if (this.full.size > 0) this.conditions.raise(STORAGE_FULL, this.reason(), this.clock.now());
    else if (this.conditions.clear(STORAGE_FULL))
      this.logger.info('disk space is back; writing again', { store });
  }

  private reason(): string {
    return (
      `the disk of the data folder is full (${[...this.full].join(', ')}): the observer answers 503 ` +
      'and the node retries, API changes answer 503; processing resumes by itself once space is freed'
    );
  }
}
