import type { DeliveryRecord, DeliveryState } from '../../core/delivery/delivery-record.js';
import type { DeliveryPage } from '../../core/ports/delivery-queue.js';
import { idHash, type ColdPayload, type ColdRun } from './cold-run.js';
import { pageOf } from './delivery-log.js';
import { coldCandidates, type HookLog } from './hook-log.js';
import { recordOf, type OutboxEntry, type PayloadMeta } from './outbox-entry.js';
import type { PayloadStore } from './payload-store.js';
import type { SettledPayload } from './settled-run.js';
import type { SettlementStore } from './settlement-store.js';

/** A payload on disk found by its id: a cold one, with its run and place in it. */
export type FoundCold = { run: ColdRun; position: number; payload: ColdPayload };

/** A settled payload on disk found by its id, and its place in the hook's settled run. */
export type FoundSettled = { position: number; payload: SettledPayload };

/**
 * Reads a hook's log where it is: entries in memory as they are, payloads on disk from their
 * records (a cold payload from its payload record, a settled one from its settlement record). A
 * payload on disk is found by id through its 32-bit id hash, each candidate read to confirm.
 */
export class LogReader {
  constructor(
    private readonly store: PayloadStore,
    private readonly settlements: SettlementStore | undefined,
  ) {}

  /** A page of the hook's log, newest first. */
  page(hook: HookLog, options: { state?: DeliveryState; offset: number; limit: number }): DeliveryPage {
    return pageOf(hook, options, {
      cold: (payload, run) => this.coldRecord(payload, run),
      settled: (payload) => this.settledRecord(payload),
    });
  }

  /** The cold payload of the hook whose id is `id`, if there is one. */
  findCold(hook: HookLog, id: string): FoundCold | undefined {
    if (hook.cold.length === 0) return undefined;
    for (const found of coldCandidates(hook, id)) if (this.store.meta(found.payload).id === id) return found;
    return undefined;
  }

  /** The settled payload on disk of the hook whose id is `id`, if there is one. */
  findSettled(hook: HookLog, id: string): FoundSettled | undefined {
    if (!this.settlements || hook.settled.length === 0) return undefined;
    for (const position of hook.settled.positionsOf(idHash(id))) {
      const payload = hook.settled.at(position);
      if (this.settlements.read(payload.settlement).meta.id === id) return { position, payload };
    }
    return undefined;
  }

  /** One record of the hook's log on disk, if its id is there. */
  getOnDisk(hook: HookLog, id: string): DeliveryRecord | undefined {
    const cold = this.findCold(hook, id);
    if (cold) return this.coldRecord(cold.payload, cold.run);
    const settled = this.findSettled(hook, id);
    return settled && this.settledRecord(settled.payload);
  }

  /** The entry a settled payload on disk was when it left memory. */
  settledEntry(payload: SettledPayload): OutboxEntry {
    return { ...this.settlements!.read(payload.settlement), loc: payload.payload };
  }

  /** The metadata of a payload from its record. */
  metaAt(payload: ColdPayload): PayloadMeta {
    return this.store.meta(payload);
  }

  /** A cold payload's record as the log shows it: its run gives its state. */
  coldRecord(payload: ColdPayload, run: ColdRun): DeliveryRecord {
    const meta = this.metaAt(payload);
    return recordOf({
      seq: payload.seq,
      meta,
      loc: payload,
      state: run.state,
      next_attempt_at: run.state === 'pending' ? meta.created_at : null,
      failure_reason: run.state === 'failed' ? run.reason : null,
      held_reason: null,
      attempts: [],
      delivered_at: null,
    });
  }

  private settledRecord(payload: SettledPayload): DeliveryRecord {
    return recordOf(this.settledEntry(payload));
  }
}
