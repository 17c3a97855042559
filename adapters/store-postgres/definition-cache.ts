import type { HookDefinition } from '../../core/hooks/definition.js';

/** Hooks whose definitions are kept at most; past it the cache starts again empty. */
const DEFAULT_LIMIT = 200_000;

/**
 * The definitions live steps have read, by hook, each with the version of the hook row it was read
 * from (its `xmin` and `ctid`: any write of the row makes a row version with others). A step reads
 * a hook's definition only when the row's version is not the one kept, so a block that reaches a
 * thousand hooks neither sends nor parses a thousand definitions it read before, and hands back the
 * same definition objects the matcher already holds (the port lets a step share them; nobody edits
 * them in place). Definitions are held weakly: the matcher keeps those of its live hooks alive, and
 * one it let go (a hook deleted by another process) is not kept here for nothing.
 */
export class DefinitionCache {
  private readonly entries = new Map<string, { version: string; definition: WeakRef<HookDefinition> }>();

  constructor(private readonly limit = DEFAULT_LIMIT) {}

  /** The definition kept for the hook at this row version, or undefined. */
  get(uuid: string, version: string): HookDefinition | undefined {
    const entry = this.entries.get(uuid);
    if (entry?.version !== version) return undefined;
    const definition = entry.definition.deref();
    if (definition === undefined) this.entries.delete(uuid);
    return definition;
  }

  /** Keep a definition read from the hook's row at `version`. */
  set(uuid: string, version: string, definition: HookDefinition): void {
    // Entries of hooks deleted elsewhere stay until asked for again; a bound keeps them from piling up.
    if (this.entries.size >= this.limit && !this.entries.has(uuid)) this.entries.clear();
    this.entries.set(uuid, { version, definition: new WeakRef(definition) });
  }

  /** Forget a hook (deleted here). */
  forget(uuid: string): void {
    this.entries.delete(uuid);
  }
}
