import { inject, injectable } from 'inversify';
import {
  finishBackfill,
  newBackfill,
  toBackfillRecord,
  type BackfillRecord,
  type StoredBackfill,
} from '../backfill/backfill.js';
import { backfillId } from '../backfill/backfill-payload.js';
import { StackhooksError, hookNotFound, invalidInput } from '../hooks/errors.js';
import { BACKFILL_STORE, type BackfillStore } from '../ports/backfill-store.js';
import { BLOCK_STORE, type BlockStore } from '../ports/block-store.js';
import { CLOCK, type Clock } from '../ports/clock.js';
import { HOOK_REPOSITORY, type HookRepository } from '../ports/hook-repository.js';
import { ID_SOURCE, type IdSource } from '../ports/id-source.js';
import { INPUT_VALIDATOR, type InputValidator } from '../ports/input-validator.js';

/** Runs accepted backfills: told when one is queued or cancelled, so a free scan slot takes it now. */
export interface BackfillRunner {
  /** A backfill was queued or cancelled; look at the queue again. */
  wake(): void;
}

export const BACKFILL_RUNNER = Symbol.for('stackhooks.BackfillRunner');

/** `/me/{uuid}/backfills`: request, list, read and cancel a hook's backfills (the scans run elsewhere). */
@injectable()
export class HookBackfills {
  constructor(
    @inject(HOOK_REPOSITORY) private readonly hooks: HookRepository,
    @inject(BLOCK_STORE) private readonly blocks: BlockStore,
    @inject(BACKFILL_STORE) private readonly backfills: BackfillStore,
    @inject(INPUT_VALIDATOR) private readonly input: InputValidator,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(ID_SOURCE) private readonly ids: IdSource,
    @inject(BACKFILL_RUNNER) private readonly runner: BackfillRunner,
  ) {}

  /**
   * Queue a backfill of the hook over `from_block_height`..`to_block_height` (default: the tip now).
   * A range that ends above the tip is accepted and says so in `beyond_archive`; one that starts
   * above it, or ends before it starts, is a validation error naming the field.
   */
  async request(owner: string, uuid: unknown, body: unknown): Promise<BackfillRecord> {
    const hookUuid = await this.ownHook(owner, uuid);
    const range = this.input.check('backfill-request', body);
    const tip = (await this.blocks.tip())?.height;
    const from = range.from_block_height;
    if (tip === undefined || from > tip) {
      const archive = tip === undefined ? 'the archive holds no block yet' : `the archive's tip is ${tip}`;
      throw invalidInput([{ field: 'from_block_height', message: `is above the archive (${archive})` }]);
    }
    const to = range.to_block_height ?? tip;
    if (to < from) {
      throw invalidInput([
        { field: 'to_block_height', message: `must be at least from_block_height (${from})` },
      ]);
    }
    const now = this.clock.now();
    const id = backfillId(this.ids.randomHex(8));
    const backfill: StoredBackfill = {
      ...newBackfill({ id, hookUuid, owner, from, to, now }),
      beyond_archive: to > tip ? { from_block_height: tip + 1, to_block_height: to } : null,
    };
    await this.backfills.create(backfill);
    this.runner.wake();
    return toBackfillRecord(backfill, now);
  }

  /** The hook's backfills, newest first. */
  async list(owner: string, uuid: unknown): Promise<{ total: number; results: BackfillRecord[] }> {
    const hookUuid = await this.ownHook(owner, uuid);
    const now = this.clock.now();
    const results = (await this.backfills.list(hookUuid)).map((b) => toBackfillRecord(b, now));
    return { total: results.length, results };
  }

  /** One backfill of the hook; unknown is `not_found`. */
  async get(owner: string, uuid: unknown, id: unknown): Promise<BackfillRecord> {
    const hookUuid = await this.ownHook(owner, uuid);
    const backfill = await this.backfills.get(hookUuid, this.input.check('backfill-id', id));
    if (!backfill) throw backfillNotFound(String(id));
    return toBackfillRecord(backfill, this.clock.now());
  }

  /**
   * Cancel a backfill: nothing more is scanned or queued for it, and its payloads not yet sent are
   * dropped. One already finished is returned as it is.
   */
  async cancel(owner: string, uuid: unknown, id: unknown): Promise<BackfillRecord> {
    const hookUuid = await this.ownHook(owner, uuid);
    const backfill = this.input.check('backfill-id', id);
    const now = this.clock.now();
    const found = await this.backfills.get(hookUuid, backfill);
    if (!found) throw backfillNotFound(backfill);
    const cancelled = await this.backfills.update(backfill, (current) =>
      finishBackfill(current, 'cancelled', now, 'cancelled by request'),
    );
    this.runner.wake();
    return toBackfillRecord(cancelled ?? found, now);
  }

  private async ownHook(owner: string, uuid: unknown): Promise<string> {
    const id = this.input.check('uuid', uuid).toLowerCase();
    const hook = await this.hooks.get(owner, id);
    if (!hook) throw hookNotFound(id);
    return id;
  }
}

function backfillNotFound(id: string): StackhooksError {
  return new StackhooksError('not_found', `backfill ${id} not found`);
}
