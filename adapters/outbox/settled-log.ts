import { BodyGoneError } from './body-gone-error.js';
import { idHash } from './cold-run.js';
import { removeByAge } from './delivery-log.js';
import type { HookLog } from './hook-log.js';
import type { KeptBody } from './log-retention.js';
import type { OutboxEntry } from './outbox-entry.js';
import { OutboxMemory } from './outbox-memory.js';
import type { Locator } from './payload-segments.js';
import type { SettledPayload } from './settled-run.js';

/** A settled entry that left memory: its settlement record is at `loc`. */
export type MovedToDisk = { hook: string; id: string; loc: Locator };

/**
 * How settled payloads leave memory and come back: a payload that settles becomes a settlement
 * record and 54 bytes in its hook's `SettledRun` (`settleToDisk`, named in the journal, replayed
 * by `movedToDisk`); a redelivery or a late attempt takes it back into memory; its body is let
 * go after its window, and its records at the prune.
 */
export class SettledLog extends OutboxMemory {
  /** Let go of the bodies of payloads delivered longer than the grace period ago; returns how many. */
  dropDeliveredBodies(): number {
    return this.deliveredBodies.dropBefore(this.seen - this.keepDeliveredBodiesMs, (kept) =>
      this.dropBody(kept),
    );
  }

  /**
   * Move the entries settled since the last call out of memory: each becomes a settlement record
   * and a place in its hook's settled run. Returns the moves, for the journal to name.
   */
  settleToDisk(): MovedToDisk[] {
    const moved: MovedToDisk[] = [];
    if (!this.settlements) return moved;
    for (const entry of this.settledInMemory) {
      if (this.entries.get(entry.meta.id) !== entry || entry.state === 'pending') continue;
      const loc = this.settlements.put(entry);
      this.moveToDisk(entry, loc);
      moved.push({ hook: entry.meta.hook_uuid, id: entry.meta.id, loc });
    }
    this.settledInMemory.clear();
    return moved;
  }

  /** Replay: the settled entry `id` left memory, its settlement record written at `loc`. */
  movedToDisk(id: string, loc: Locator): void {
    const entry = this.entries.get(id);
    if (!this.settlements || !entry || entry.state === 'pending') return;
    this.settlements.retain(loc);
    this.moveToDisk(entry, loc);
  }

  // Whether a payload id is queued or logged already: in memory, or (read to confirm) on disk.
  protected knows(hookUuid: string, id: string): boolean {
    if (this.entries.has(id)) return true;
    const hook = this.hooks.get(hookUuid);
    if (!hook) return false;
    if (this.reader.findCold(hook, id)) return true;
    // Most ids are new: the hash count says so without a look at the hook's settled payloads.
    return this.settledHashes.has(idHash(id)) && this.reader.findSettled(hook, id) !== undefined;
  }

  // A failed payload on disk taken back into memory (to be redelivered), as the log showed it.
  protected warmFailed(hookUuid: string, id: string): OutboxEntry | undefined {
    const hook = this.hooks.get(hookUuid);
    const found = hook && this.reader.findCold(hook, id);
    if (!hook || !found || found.run.state !== 'failed') return undefined;
    const p = found.run.removeAt(found.position);
    if (found.run.length === 0) hook.cold.splice(hook.cold.indexOf(found.run), 1);
    const entry: OutboxEntry = {
      ...this.newEntry(p.seq, this.reader.metaAt(p), p),
      state: 'failed',
      next_attempt_at: null,
      failure_reason: found.run.reason,
    };
    this.insert(entry);
    return entry;
  }

  // A settled payload on disk taken back into memory (to be redelivered, or given a late attempt).
  // One whose body is gone stays where it is: a redelivery of it is refused.
  protected warmSettled(hookUuid: string, id: string): OutboxEntry | undefined {
    const hook = this.hooks.get(hookUuid);
    const found = hook && this.reader.findSettled(hook, id);
    if (!hook || !found) return undefined;
    if (!found.payload.payload) throw new BodyGoneError(id);
    return this.warm(hook, found.position);
  }

  // An attempt on a payload that is not in memory: a settled one on disk of any hook, if it is one.
  protected warmSettledAnywhere(id: string): OutboxEntry | undefined {
    if (!this.settledHashes.has(idHash(id))) return undefined;
    for (const hook of this.hooks.values()) {
      const found = this.reader.findSettled(hook, id);
      if (found) return this.warm(hook, found.position);
    }
    return undefined;
  }

  protected warm(hook: HookLog, position: number): OutboxEntry {
    const p = hook.settled.removeAt(position);
    this.settledHashes.remove(p.hash);
    const entry = this.reader.settledEntry(p);
    this.settlements!.release(p.settlement);
    this.insert(entry);
    this.settledInMemory.add(entry);
    return entry;
  }

  protected moveToDisk(entry: OutboxEntry, loc: Locator): void {
    const hook = this.hooks.get(entry.meta.hook_uuid)!;
    this.settledInMemory.delete(entry);
    this.entries.delete(entry.meta.id);
    removeByAge(hook.log, entry);
    hook.counts[entry.state]--;
    this.settledHashes.add(idHash(entry.meta.id));
    hook.settled.insert({
      payload: entry.loc,
      settlement: loc,
      seq: entry.seq,
      created_at: entry.meta.created_at,
      hash: idHash(entry.meta.id),
      state: entry.state === 'failed' ? 'failed' : 'delivered',
      delivered_at: entry.delivered_at,
    });
  }

  // A delivered payload's window ended: let its body go, in memory or on disk, unless it was
  // redelivered or forgotten since. True when a body went.
  protected dropBody(kept: KeptBody): boolean {
    const entry = kept.id === '' ? undefined : this.entries.get(kept.id);
    if (entry) {
      if (entry.state !== 'delivered' || entry.delivered_at !== kept.at || !entry.loc) return false;
      this.touch(entry);
      this.store.release(entry.loc, entry.meta.id);
      entry.loc = undefined;
      return true;
    }
    const run = this.hooks.get(kept.hook)?.settled;
    const position = run ? run.find(kept.created_at, kept.seq) : -1;
    if (!run || position < 0) return false;
    const p = run.at(position);
    if (p.state !== 'delivered' || p.delivered_at !== kept.at || !p.payload) return false;
    run.dropBody(position);
    this.store.release(p.payload, kept.id);
    return true;
  }

  protected forgetSettled(p: SettledPayload): void {
    this.settledHashes.remove(p.hash);
    this.settlements?.release(p.settlement);
    if (p.payload) this.store.release(p.payload, '');
  }
}
