/** Consumer secrets by owner, noting the owners a change sets or removes so it can be journaled. */
export class SecretTable extends Map<string, string> {
  #touched = new Set<string>();

  constructor(entries: Iterable<readonly [string, string]> = []) {
    // Filled after construction: Map's constructor would call `set` before the field exists.
    super();
    for (const [owner, secret] of entries) super.set(owner, secret);
  }

  /** Set an owner's secret. */
  override set(owner: string, secret: string): this {
    this.#touched.add(owner);
    return super.set(owner, secret);
  }

  /** Remove an owner's secret; false when there was none. */
  override delete(owner: string): boolean {
    const removed = super.delete(owner);
    if (removed) this.#touched.add(owner);
    return removed;
  }

  /** The owners set or removed since the last call. */
  takeTouched(): Set<string> {
    const touched = this.#touched;
    this.#touched = new Set();
    return touched;
  }
}
