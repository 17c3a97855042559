import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isFinished, type StoredBackfill } from '../../core/backfill/backfill.js';
import type { BackfillStore } from '../../core/ports/backfill-store.js';
import type { DiskSpaceReport } from '../../core/storage/write-failure.js';
import { CoalescedWrites } from './coalesced-writes.js';
import { DurableJsonFile } from './durable-json-file.js';

/** The file of the embedded backfill store, in the data folder. */
export const BACKFILL_FILE_NAME = 'backfills.json';

/** Finished backfills kept per hook; older ones are forgotten when a new one is stored. */
export const FINISHED_BACKFILLS_KEPT = 100;

type BackfillDocument = { backfills: StoredBackfill[] };

/**
 * The embedded BackfillStore: every backfill in memory and in one JSON file, written durably (a
 * change resolves once on disk; changes made while a write runs share the next one).
 */
export class FileBackfillStore implements BackfillStore {
  readonly #byId = new Map<string, StoredBackfill>();
  readonly #file: DurableJsonFile<BackfillDocument>;
  readonly #writes: CoalescedWrites;

  private constructor(file: DurableJsonFile<BackfillDocument>, space?: DiskSpaceReport) {
    this.#file = file;
    this.#writes = new CoalescedWrites(() => this.#file.write(this.#document()), file.path, space);
  }

  /** Open (creating when missing) `{dataDir}/backfills.json`. */
  static async open(dataDir: string, options: { space?: DiskSpaceReport } = {}): Promise<FileBackfillStore> {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    const file = new DurableJsonFile<BackfillDocument>(join(dataDir, BACKFILL_FILE_NAME));
    const store = new FileBackfillStore(file, options.space);
    for (const backfill of (await file.read())?.backfills ?? []) store.#byId.set(backfill.id, backfill);
    return store;
  }

  async create(backfill: StoredBackfill): Promise<void> {
    this.#byId.set(backfill.id, structuredClone(backfill));
    this.#forgetOldFinished(backfill.hook_uuid);
    await this.#writes.persist();
  }

  async get(hookUuid: string, id: string): Promise<StoredBackfill | undefined> {
    const found = this.#byId.get(id);
    return found?.hook_uuid === hookUuid ? structuredClone(found) : undefined;
  }

  async list(hookUuid: string): Promise<StoredBackfill[]> {
    return this.#ofHook(hookUuid)
      .sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? 1 : -1))
      .map((b) => structuredClone(b));
  }

  async unfinished(): Promise<StoredBackfill[]> {
    return [...this.#byId.values()]
      .filter((b) => !isFinished(b))
      .sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : 1))
      .map((b) => structuredClone(b));
  }

  async update(
    id: string,
    change: (current: StoredBackfill) => StoredBackfill,
  ): Promise<StoredBackfill | undefined> {
    const current = this.#byId.get(id);
    if (!current) return undefined;
    const next = change(structuredClone(current));
    this.#byId.set(id, structuredClone(next));
    await this.#writes.persist();
    return structuredClone(next);
  }

  /** Resolve once every change so far is on disk. */
  flush(): Promise<void> {
    return this.#writes.flush();
  }

  #ofHook(hookUuid: string): StoredBackfill[] {
    return [...this.#byId.values()].filter((b) => b.hook_uuid === hookUuid);
  }

  #forgetOldFinished(hookUuid: string): void {
    const finished = this.#ofHook(hookUuid)
      .filter(isFinished)
      .sort((a, b) => b.created_at - a.created_at);
    for (const old of finished.slice(FINISHED_BACKFILLS_KEPT)) this.#byId.delete(old.id);
  }

  #document(): BackfillDocument {
    return { backfills: [...this.#byId.values()] };
  }
}
