/**
 * A FIFO of payload ids. Taking from the front moves an index instead of shifting the array, so a
 * hook with a long backlog pays O(1) per delivered payload; the slot is emptied, so an id taken is
 * not kept until the next compaction (up to a thousand ids a hook, for every hook with traffic).
 */
export class IdQueue {
  private items: (string | undefined)[] = [];
  private head = 0;

  /** How many ids wait. */
  get length(): number {
    return this.items.length - this.head;
  }

  /** The oldest id, or undefined when empty. */
  first(): string | undefined {
    return this.head < this.items.length ? this.items[this.head] : undefined;
  }

  /** Add an id at the back. */
  push(id: string): void {
    this.items.push(id);
  }

  /** Take an id out wherever it is; true when it was there. The front is the common, cheap case. */
  remove(id: string): boolean {
    if (this.first() === id) {
      this.items[this.head++] = undefined;
      this.compact();
      return true;
    }
    const at = this.items.indexOf(id, this.head);
    if (at < 0) return false;
    this.items.splice(at, 1);
    return true;
  }

  /** Every waiting id, oldest first. */
  toArray(): string[] {
    return this.items.slice(this.head) as string[];
  }

  /** How many ids the queue still references, taken ones included (a test view). */
  get held(): number {
    return this.items.filter((item) => item !== undefined).length;
  }

  /** Empty the queue, returning what waited. */
  clear(): string[] {
    const all = this.toArray();
    this.items = [];
    this.head = 0;
    return all;
  }

  // Drop the taken prefix once it outweighs the rest, keeping memory proportional to the backlog.
  private compact(): void {
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }
}
