/**
 * A binary min-heap. The outbox keeps one entry per hook head in it, so finding what is due costs
 * O(log hooks) per payload instead of a scan of every queued payload.
 */
export class MinHeap<T> {
  private readonly items: T[] = [];

  constructor(private readonly before: (a: T, b: T) => boolean) {}

  /** How many items it holds (stale ones included). */
  get size(): number {
    return this.items.length;
  }

  /** The smallest item, left in place. */
  peek(): T | undefined {
    return this.items[0];
  }

  /** Add an item. */
  push(item: T): void {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(items[i], items[parent])) break;
      [items[i], items[parent]] = [items[parent], items[i]];
      i = parent;
    }
  }

  /** Remove and return the smallest item. */
  pop(): T | undefined {
    const items = this.items;
    if (items.length === 0) return undefined;
    const top = items[0];
    const last = items.pop()!;
    if (items.length > 0) {
      items[0] = last;
      this.siftDown(0);
    }
    return top;
  }

  /** Replace the whole content (used to shed stale entries in one O(n) pass). */
  reset(items: T[]): void {
    this.items.length = 0;
    this.items.push(...items);
    for (let i = (this.items.length >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  private siftDown(start: number): void {
    const items = this.items;
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < items.length && this.before(items[left], items[smallest])) smallest = left;
      if (right < items.length && this.before(items[right], items[smallest])) smallest = right;
      if (smallest === i) return;
      [items[i], items[smallest]] = [items[smallest], items[i]];
      i = smallest;
    }
  }
}
