import { IdQueue } from './id-queue.js';
import { MinHeap } from './min-heap.js';

/** One hook's pending payloads in delivery order; `version` changes whenever its head does. */
export type HookQueue = { uuid: string; pending: IdQueue; version: number };

type Head = { hook: HookQueue; at: number; seq: number; version: number };

/**
 * The head (oldest pending payload) of every hook, ordered by when it is due. A head that moves is
 * not searched for in the heap: the hook's version changes and the old heap entry is skipped when
 * it surfaces (lazy invalidation), so every change costs one O(log n) push.
 */
export class HookHeads {
  private readonly heap = new MinHeap<Head>((a, b) => a.at < b.at || (a.at === b.at && a.seq < b.seq));
  private versions = 0;
  /** Heads of hooks that were busy when last due, by hook: out of the heap until they are free. */
  private readonly parked = new Map<string, Head>();

  /** A new empty hook queue. */
  newQueue(uuid: string): HookQueue {
    return { uuid, pending: new IdQueue(), version: ++this.versions };
  }

  /** The hook's head is now `head` (due at `at`), or it has none. */
  moved(hook: HookQueue, head?: { at: number; seq: number }): void {
    hook.version = ++this.versions;
    if (head) this.heap.push({ hook, at: head.at, seq: head.seq, version: hook.version });
  }

  /** Forget a hook: its heap entries become stale. */
  dropped(hook: HookQueue): void {
    hook.version = ++this.versions;
  }

  /** Up to `limit` hooks whose head is due at `now`, earliest first, leaving out those `skip` names. */
  due(now: number, limit: number, skip: (uuid: string) => boolean): HookQueue[] {
    this.unpark(skip);
    const found: HookQueue[] = [];
    const taken: Head[] = [];
    while (found.length < limit) {
      const top = this.freshTop();
      if (!top || top.at > now) break;
      this.heap.pop();
      if (skip(top.hook.uuid)) {
        // A hook with an attempt in flight stays out of the heap until it is free again (or its head
        // moves), so each call does not pop and push every busy hook once more.
        this.parked.set(top.hook.uuid, top);
      } else {
        taken.push(top);
        found.push(top.hook);
      }
    }
    // They stay heads until an attempt is recorded: put them back.
    for (const head of taken) this.heap.push(head);
    return found;
  }

  /** When the earliest head is due, or undefined when no hook has one. */
  nextDueAt(): number | undefined {
    let at = this.freshTop()?.at;
    for (const [uuid, head] of this.parked) {
      if (head.version !== head.hook.version) this.parked.delete(uuid);
      else if (at === undefined || head.at < at) at = head.at;
    }
    return at;
  }

  /** How many heap entries there are, stale ones included. */
  get size(): number {
    return this.heap.size + this.parked.size;
  }

  /** Rebuild from the hooks' current heads, shedding stale entries (the owner calls it when they pile up). */
  rebuild(
    hooks: Iterable<HookQueue>,
    headOf: (hook: HookQueue) => { at: number; seq: number } | undefined,
  ): void {
    const fresh: Head[] = [];
    for (const hook of hooks) {
      const head = headOf(hook);
      if (head) fresh.push({ hook, at: head.at, seq: head.seq, version: hook.version });
    }
    this.parked.clear();
    this.heap.reset(fresh);
  }

  /** Parked heads back into the heap once their hook is free; stale ones dropped. */
  private unpark(skip: (uuid: string) => boolean): void {
    for (const [uuid, head] of this.parked) {
      if (head.version !== head.hook.version) this.parked.delete(uuid);
      else if (!skip(uuid)) {
        this.parked.delete(uuid);
        this.heap.push(head);
      }
    }
  }

  private freshTop(): Head | undefined {
    for (;;) {
      const top = this.heap.peek();
      if (!top || top.version === top.hook.version) return top;
      this.heap.pop();
    }
  }
}
